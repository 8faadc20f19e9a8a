import Foundation

/// An action the dispatcher refused, as a journal records it: its name and payload, the error, and why.
///
/// A refusal changed no state, so it is not a step: time travel does not
/// stop at it, and ``JournalRecord/sequence`` does not count it. It is recorded
/// where it happened, after step ``afterStep``, because a bug report is often
/// exactly a refusal:
///
/// ```swift
/// try? dispatcher.dispatch(.addTodo, payload: "")  // the handler throws TodoError.emptyTitle
/// print(journal.refusals.last!)  // ✗ addTodo() ! emptyTitle (thrown) after #2
/// ```
///
/// A replay dispatches a replayable refusal again and checks that it is
/// refused again with an equal error: by value when the error's type is
/// registered with ``Dispatcher/registerReplayableError(_:)``, by description
/// otherwise. A refusal that now succeeds is a ``ReplayReport/mismatch``.
public struct JournalRefusal: Sendable, Equatable, CustomStringConvertible {
    /// Why the dispatcher refused the action.
    public enum Reason: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
        /// A handler (or a middleware past the journal's place, or a batch's body) threw.
        case thrown
        /// The payload is not of the type the action's handler takes.
        case payloadTypeMismatch
        /// The stores showed the past (``JournalError/travelling(action:step:)``).
        case pastShown
        /// The action came from a task cancelled through the dispatcher.
        case taskCancelled
        /// The dispatcher refused it: a store not registered, a `waitFor` cycle, a batch inside an action.
        case dispatcher

        /// The reason in words: `thrown`, `payload type mismatch`, `past shown`, `task cancelled`, `dispatcher`.
        public var description: String {
            switch self {
            case .thrown: "thrown"
            case .payloadTypeMismatch: "payload type mismatch"
            case .pastShown: "past shown"
            case .taskCancelled: "task cancelled"
            case .dispatcher: "dispatcher"
            }
        }

        /// Whether a replay can dispatch the action again and expect the same refusal: a handler refused it,
        /// from the states the replay repeats. The others come from what the dispatcher was doing (showing the
        /// past, cancelling a task), how it was set up (a store unregistered), or a payload a replay cannot
        /// decode as the handler's type.
        var isReproducible: Bool { self == .thrown }
    }

    /// The number of the last step recorded before it (0 before the first); for one refused while the
    /// stores showed the past, the step they showed.
    public let afterStep: Int
    /// The action's name; ``AnyAction/batchName`` for a batch.
    public let name: String
    /// The action as it prints, with its payload: `addTodo()`, `rename(milk)`; a batch as
    /// `Fluxion.batch of 2 action(s)`.
    public let action: String
    /// The error it was refused with, described (redacted in a file, as payloads are).
    public let error: String
    /// Why it was refused.
    public let reason: Reason
    /// When it was refused.
    public let time: Date
    /// What made it run: a dispatch from outside, one queued by a step, or an effect.
    public let cause: JournalRecord.Cause
    /// Whether a replay dispatches it again: it is one action, not a batch (whose body may have thrown
    /// itself), its reason is ``Reason/thrown``, and its payload and error are recorded unredacted, the
    /// payload as JSON.
    public let isReplayable: Bool

    /// `✗ addTodo() ! emptyTitle (thrown) after #2`, and its cause when it is not `outside`.
    public var description: String {
        let cause = cause == .outside ? "" : "  ← \(cause)"
        return "✗ \(action) ! \(error) (\(reason)) after #\(afterStep)\(cause)"
    }

    /// A refusal read from a journal file's line.
    init(_ line: JournalLine) {
        afterStep = line.sequence ?? 0
        name = line.action?.name ?? ""
        action = line.action?.description ?? ""
        error = line.refusal?.error ?? ""
        reason = line.refusal?.reason ?? .thrown
        time = line.time ?? Date(timeIntervalSince1970: 0)
        cause = line.cause?.cause ?? .outside
        isReplayable = line.replayable ?? false
    }
}

extension JournalRefusal {
    /// A refusal as a journal holds it in memory: the action and the error as values.
    struct Entry: Sendable {
        let afterStep: Int
        let action: AnyAction
        let error: any Error
        let reason: Reason
        let cause: JournalRecord.Cause
        let time: Date
    }

    /// The refusal in memory, described without redaction.
    init(_ entry: Entry, errorTypes: ReplayableErrors) {
        self.init(JournalLine(entry, redacting: [], errorTypes: errorTypes))
    }

    /// Why `error`, thrown by an action on its way through the stores, refused it.
    static func reason(for error: any Error, inCancelledTask: Bool) -> Reason {
        switch error {
        case FluxionError.payloadTypeMismatch: .payloadTypeMismatch
        case JournalError.travelling: .pastShown
        case is CancellationError where inCancelledTask: .taskCancelled
        case is FluxionError: .dispatcher
        default: .thrown
        }
    }
}
