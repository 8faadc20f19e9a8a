import Fluxion
import Foundation

/// A short account of a recorded session: how many steps over how long, which actions ran, which stores
/// changed, how the effects ended, which steps carried an error or cannot be replayed, and which actions
/// the dispatcher refused, by error.
///
/// ```swift
/// import FluxionInspector
///
/// let summary = try JournalSummary(contentsOf: sessionURL)
/// print(summary)
/// ```
///
/// prints
///
/// ```
/// steps: 3, from 2026-11-28T09:14:02.120Z to 2026-11-28T09:14:05.871Z (3.751 s)
/// actions:
///   2  addTodo
///   1  completeTodo
/// stores changed:
///   3  TodoStore
///   1  StatsStore
/// effects: none
/// errors: none
/// not replayable: none
/// refused: none
/// ```
///
/// `fluxion-inspect session.jsonl --summary` prints it too.
public struct JournalSummary: Sendable, Equatable, CustomStringConvertible {
    /// A name and how many times it counted: the steps of an action, or the steps that changed a store.
    public struct Count: Sendable, Equatable {
        /// The action's or the store's name.
        public let name: String
        /// How many steps.
        public let count: Int
    }

    /// The steps recorded: actions and batches, not the marks where recording resumed after time travel.
    public let stepCount: Int
    /// When the first step was recorded, and the last; `nil` for a journal without steps.
    public let timeSpan: ClosedRange<Date>?
    /// The steps of each action, most first (a batch counts under `AnyAction.batchName`).
    public let actions: [Count]
    /// The steps that changed each store (a handler that ran but left the state as it was does not count),
    /// most first.
    public let storesChanged: [Count]
    /// The effects the steps started, with how they ended.
    public let effects: [JournalRecord.Effect]
    /// The numbers of the steps whose action carried an error.
    public let stepsWithErrors: [Int]
    /// The numbers of the steps that replay cannot dispatch again (see `JournalRecord.isReplayable`).
    public let stepsNotReplayable: [Int]
    /// The actions the dispatcher refused, counted by error (`empty (thrown)`), most first.
    public let refusals: [Count]
    /// How many times recording resumed from an earlier step after time travel, dropping the steps after it.
    public let resumeCount: Int

    /// The summary of `records` and `refusals`, in the order a journal holds them.
    ///
    /// ```swift
    /// let summary = JournalSummary(journal.records, refusals: journal.refusals)
    /// ```
    public init(_ records: [JournalRecord], refusals: [JournalRefusal] = []) {
        self.refusals = Self.counts(refusals.map { "\($0.error) (\($0.reason))" })
        let steps = records.filter { $0.name != AnyAction.travelName }
        stepCount = steps.count
        resumeCount = records.count - steps.count
        if let first = steps.map(\.time).min(), let last = steps.map(\.time).max() {
            timeSpan = first...last
        } else {
            timeSpan = nil
        }
        actions = Self.counts(steps.map(\.name))
        storesChanged = Self.counts(steps.flatMap { $0.changes.filter { !$0.diff.isEmpty }.map(\.store) })
        effects = steps.flatMap(\.effects)
        stepsWithErrors = steps.filter { $0.error != nil }.map(\.sequence)
        stepsNotReplayable = steps.filter { !$0.isReplayable }.map(\.sequence)
    }

    /// The summary of the journal file at `url`.
    ///
    /// ```swift
    /// let summary = try JournalSummary(contentsOf: URL(fileURLWithPath: "session.jsonl"))
    /// ```
    ///
    /// - Throws: `JournalError` for a file that cannot be read, is not a journal, or has a corrupt line.
    public init(contentsOf url: URL) throws {
        self.init(try Journal.records(contentsOf: url), refusals: try Journal.refusals(contentsOf: url))
    }

    /// The summary as lines of text, as `fluxion-inspect --summary` prints it.
    public var description: String {
        var lines = ["steps: \(stepCount)" + (timeSpan.map(Self.describe) ?? "")]
        lines += Self.describe(actions, title: "actions")
        lines += Self.describe(storesChanged, title: "stores changed")
        lines.append("effects: " + describeEffects())
        lines.append("errors: " + Self.describe(steps: stepsWithErrors))
        lines.append("not replayable: " + Self.describe(steps: stepsNotReplayable))
        let refused = refusals.map(\.count).reduce(0, +)
        lines += refused == 0 ? ["refused: none"] : ["refused: \(refused)"] + Self.lines(of: refusals)
        if resumeCount > 0 {
            lines.append("resumed after time travel: \(resumeCount) time" + (resumeCount == 1 ? "" : "s"))
        }
        return lines.joined(separator: "\n")
    }

    /// Each name with its count, most first, then by name.
    private static func counts(_ names: [String]) -> [Count] {
        Dictionary(names.map { ($0, 1) }, uniquingKeysWith: +).map { Count(name: $0.key, count: $0.value) }
            .sorted { ($0.count, $1.name) > ($1.count, $0.name) }
    }

    /// `, from … to … (3.751 s)`.
    private static func describe(_ span: ClosedRange<Date>) -> String {
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let seconds = span.upperBound.timeIntervalSince(span.lowerBound)
        let from = format.string(from: span.lowerBound)
        let to = format.string(from: span.upperBound)
        return ", from \(from) to \(to) (\(String(format: "%.3f", seconds)) s)"
    }

    /// A title line and a line for each count, or `title: none`.
    private static func describe(_ counts: [Count], title: String) -> [String] {
        counts.isEmpty ? ["\(title): none"] : ["\(title):"] + lines(of: counts)
    }

    /// A line for each count: the count, aligned, and the name.
    private static func lines(of counts: [Count]) -> [String] {
        let width = String(counts.map(\.count).max() ?? 0).count
        return counts.map { count in
            "  " + String(repeating: " ", count: width - String(count.count).count) + "\(count.count)  \(count.name)"
        }
    }

    /// `none`, or `2 steps: #3, #5` (the first ten numbers).
    private static func describe(steps: [Int]) -> String {
        guard !steps.isEmpty else { return "none" }
        let shown = steps.prefix(10).map { "#\($0)" }.joined(separator: ", ")
        let more = steps.count > 10 ? ", …" : ""
        return "\(steps.count) step" + (steps.count == 1 ? "" : "s") + ": \(shown)\(more)"
    }

    /// `none`, or `3 (2 finished, 1 failed)`.
    private func describeEffects() -> String {
        guard !effects.isEmpty else { return "none" }
        let outcomes = effects.map { effect in
            switch effect.outcome {
            case .finished: "finished"
            case .failed: "failed"
            case .cancelled: "cancelled"
            case nil: "running"
            }
        }
        let ends = ["finished", "failed", "cancelled", "running"].compactMap { end in
            let count = outcomes.filter { $0 == end }.count
            return count == 0 ? nil : "\(count) \(end)"
        }
        return "\(effects.count) (" + ends.joined(separator: ", ") + ")"
    }
}
