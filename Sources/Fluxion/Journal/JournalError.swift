/// What went wrong reading, replaying or travelling through a ``Journal``.
///
/// Replay errors name the journal file's line (counting from 1), so that a
/// bad file can be fixed or a replay resumed past it.
public enum JournalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The journal file cannot be read or written.
    case unreadableFile(path: String, reason: String)
    /// The file does not start with a Fluxion journal header, or has a version this Fluxion does not know.
    case notAJournal(path: String, reason: String)
    /// A line is not a journal line: cut short (a crash while writing), or not JSON.
    case corruptLine(line: Int, reason: String)
    /// A recorded action no store of the dispatcher replayed into handles.
    case unknownAction(line: Int, name: String)
    /// A recorded store type the dispatcher replayed into does not register.
    case unknownStore(line: Int, name: String)
    /// A recorded payload, error or state no longer decodes as the type the handler table, the store, or
    /// ``Dispatcher/registerReplayableError(_:)`` names; or an error's recorded type is not registered with
    /// the dispatcher replayed into.
    case undecodableValue(line: Int, name: String, reason: String)
    /// A recorded step cannot be dispatched again — its payload was not recorded as JSON (not `Codable`,
    /// or redacted), it carried an error not recorded as JSON (see ``Dispatcher/registerReplayableError(_:)``),
    /// or it made an inline mutation — and the line lacks the state it
    /// left a store whose state is `Codable`, to set instead: the file was edited or damaged. (A state that
    /// is not `Codable` is never recorded as JSON: replay lists its store in ``ReplayReport/incomparableStores``.)
    case notReplayable(line: Int, name: String)
    /// An action dispatched while the journal travels in time; see ``Journal/resumeDiscardingLaterSteps()``.
    case travelling(action: String, step: Int)
    /// A step the journal does not hold: it has `range`.
    case noSuchStep(Int, range: ClosedRange<Int>)
    /// A time-travel move (`move`: "step back", "return to the present", …) asked for from inside a
    /// dispatch — a handler, an observer, a middleware or a batch's closure. A move takes a dispatch
    /// turn of its own: ask for it once the dispatch has returned.
    case travelDuringDispatch(move: String)
    /// ``Journal/stepBack()`` at the oldest step the journal holds, `step`: there is none before it.
    case atOldestStep(Int)
    /// ``Journal/stepForward()`` at the newest step, `step` (the present): there is none after it.
    case atNewestStep(Int)
    /// An action a task dispatched while the journal showed step `step`, held, then dropped when
    /// ``Journal/resumeDiscardingLaterSteps()`` made that step the present or ``Journal/stop()`` stopped the journal there;
    /// ``Dispatcher/onTaskError`` hears of it.
    case heldDispatchDropped(action: String, step: Int)
    /// The path given for a journal file holds something a journal does not replace: a directory, a
    /// symbolic link, or a file that is not a Fluxion journal. The path was left untouched.
    case notReplaceable(path: String, reason: String)
    /// A line of the journal file could not be written: step `step`'s, or, for an effect's start or end
    /// or where recording resumed, the line about that step. The steps after it are still written;
    /// ``Journal/onWriteError`` hears of each one.
    case writeFailed(path: String, step: Int, reason: String)
    /// A value the journal cannot redact by its structure, as its payload or a store's state is not
    /// `Codable`: with `redactingKeys`, the steps of `action` are written without it, and do not replay.
    /// ``Journal/onWriteError`` hears of it once per action name, when its first step is written.
    case notRedactable(action: String, reason: String)
    /// A new journal was given a dispatcher that another journal records already, the one whose file
    /// is at the path given (`nil`: the one recording in memory only). A dispatcher has one journal at a
    /// time; once that one has stopped (``Journal/stop()``, or it was let go), another may attach.
    case alreadyRecorded(by: String?)

    /// What went wrong, naming the file, step or call at fault.
    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            "cannot use the journal file \(path): \(reason)"
        case .notAJournal(let path, let reason):
            "\(path) is not a Fluxion journal: \(reason)"
        case .corruptLine(let line, let reason):
            "line \(line) of the journal is corrupt: \(reason)"
        case .unknownAction(let line, let name):
            "line \(line) of the journal records the action '\(name)', which no registered store handles"
        case .unknownStore(let line, let name):
            "line \(line) of the journal records the store \(name), which is not registered"
        case .undecodableValue(let line, let name, let reason):
            "line \(line) of the journal: the value of '\(name)' no longer decodes: \(reason)"
        case .travelDuringDispatch(let move):
            "cannot \(move) from inside a dispatch (a handler, an observer, a middleware or a batch's closure): "
                + "time travel takes a dispatch turn of its own; \(move) once the dispatch has returned"
        case .notReplayable(let line, let name):
            "line \(line) of the journal records '\(name)' without a replayable payload"
        case .travelling(let action, let step):
            "'\(action)' was refused: the journal is at step \(step) in the past; resume or return to the present first"
        case .heldDispatchDropped(let action, let step):
            "'\(action)', dispatched by a task while the journal showed step \(step), was dropped: the journal resumed or stopped there"
        case .notReplaceable(let path, let reason):
            "the journal will not write to \(path): \(reason); it replaces only an earlier journal, or creates a new file"
        case .writeFailed(let path, let step, let reason):
            "step \(step) was not written to the journal file \(path): \(reason); the steps after it are written as they come"
        case .notRedactable(let action, let reason):
            "'\(action)' cannot be redacted by its structure: \(reason); with redacted keys, its steps are written without it and do not replay"
        case .alreadyRecorded(let path):
            "the dispatcher is recorded already, by "
                + (path.map { "the journal writing to \($0)" } ?? "a journal that records in memory")
                + "; a dispatcher has one journal at a time: stop that one (stop(), or let it go) first"
        case .atOldestStep(let step):
            "cannot step back: the stores already show the oldest step the journal holds (step \(step))"
        case .atNewestStep(let step):
            "cannot step forward: the stores already show the newest step, the present (step \(step))"
        case .noSuchStep(let step, let range):
            "the journal has no step \(step); it holds steps \(range.lowerBound) to \(range.upperBound)"
        }
    }
}
