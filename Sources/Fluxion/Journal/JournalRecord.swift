import Foundation

/// One step of a journal, to read: the action, when, and what it changed in each store.
///
/// Its description is the step as `todo history` prints it:
///
/// ```
/// #2 completeTodo(2)
///   TodoStore.items[1].isDone: false → true
///   StatsStore.done: 0 → 1
/// ```
public struct JournalRecord: Sendable, CustomStringConvertible {
    /// One store's change: the store type's name and the field-by-field diff, `path: old → new`.
    public struct Change: Sendable, Equatable {
        /// The name of the store type that changed.
        public let store: String
        /// The field-by-field diff, one `path: old → new` per line.
        public let diff: [String]
    }

    /// The step's number in the journal, from 1.
    public let sequence: Int
    /// The action's name: ``AnyAction/batchName`` for a batch, ``AnyAction/travelName`` where a
    /// recording resumed after time travel.
    public let name: String
    /// The action as it prints, with its payload: `completeTodo(2)`; an optional payload as its value,
    /// `loaded(["tea"])` or `loaded(nil)`; a batch as `Fluxion.batch of 2 action(s)`.
    ///
    /// It is text, not a typed value, by design: a record read from a file holds
    /// the action as the file printed it when it was recorded, and whoever reads
    /// the file — `todo history`, a tool, another build of the app — need not
    /// know the payload's type, nor have it. To pick the steps of an action,
    /// compare ``name`` with an ``ActionName``'s `rawValue`
    /// (`record.name == ActionName.completeTodo.rawValue`); the payload as a
    /// value is in the file as JSON, which a replay decodes as the type the
    /// handler tables name.
    public let action: String
    /// The action's error, described (an optional in it printed as its value), if it carried one.
    public let error: String?
    /// When the action was recorded: as the clock read it in memory; to the microsecond from a file (to the
    /// second from a file written before version 3).
    public let time: Date
    /// Whether replay can dispatch it again: its payloads were recorded as JSON, it carried no error or
    /// one of a type registered with ``Dispatcher/registerReplayableError(_:)`` (recorded as JSON), and it
    /// holds no inline mutation. A record in memory says so of the types the dispatcher registers now.
    public let isReplayable: Bool
    /// The stores it changed, in registration order.
    public let changes: [Change]
    /// What made it run: a dispatch from outside, one queued by an earlier step, or an earlier step's effect.
    public let cause: Cause
    /// The effects it started, in the order asked for, with when and how each ended.
    public internal(set) var effects: [Effect]

    /// The step as text: its number, action, error and cause, then a line for each field it changed and each effect.
    public var description: String {
        guard name != AnyAction.travelName else { return "— \(action); the steps after it were dropped" }
        let error = error.map { " ! \($0)" } ?? ""
        let cause = cause == .outside ? "" : "  ← \(cause)"
        let lines = changes.flatMap { change in change.diff.map { "  \(change.store).\($0)" } }
        let effects = effects.map { effect in
            "  ⇢ effect \(effect.name): " + (effect.outcome.map { "\($0)" } ?? "running")
        }
        return (["#\(sequence) \(action)\(error)\(cause)"] + lines + effects).joined(separator: "\n")
    }

    /// A step in memory: its diffs are worked out now; `errorTypes` are the error types recorded as values.
    init(_ entry: JournalEntries.Entry, errorTypes: ReplayableErrors) {
        let recorded = (entry.action.payload as? [AnyAction]).flatMap {
            entry.action.name == AnyAction.batchName ? $0 : nil
        }
        sequence = entry.sequence
        name = entry.action.name
        action = "\(entry.action)"
        error = entry.action.error.map { plainDescription(of: $0) }
        time = entry.time
        isReplayable = (recorded ?? [entry.action]).allSatisfy {
            JournalLine.Action($0, redacting: [], errorTypes: errorTypes).isReplayable
        }
        changes = entry.changes.map { change in
            Change(store: change.storeName, diff: StateDiff.lines(from: change.oldState, to: change.newState))
        }
        cause = entry.cause
        effects = entry.effects
    }

    /// A step read from a journal file.
    init(_ line: JournalLine) {
        sequence = line.sequence ?? 0
        name = line.kind == .resume ? AnyAction.travelName : line.action?.name ?? ""
        action = line.kind == .resume ? "resumed from step \(sequence)" : line.action?.description ?? ""
        error = line.action?.error
        time = line.time ?? Date(timeIntervalSince1970: 0)
        isReplayable = line.replayable ?? false
        changes = (line.changes ?? []).map { Change(store: $0.store, diff: $0.diff) }
        cause = line.cause?.cause ?? .outside
        effects = []
    }
}
