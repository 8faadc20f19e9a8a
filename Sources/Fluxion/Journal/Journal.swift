import Foundation

/// A record of every action that reaches the stores, with the changes it made: to read, to save as
/// JSON Lines, to replay into a fresh dispatcher, and to travel back and forth in.
///
/// ```swift
/// let journal = try Journal(recording: dispatcher, writingTo: sessionURL)
/// try dispatcher.dispatch(.addTodo, payload: "Buy milk")
/// print(journal.records.last!)  // #1 addTodo(Buy milk)
///                                 //   TodoStore.items[0]: + Todo(title: "Buy milk", isDone: false)
/// try journal.stepBack()          // the stores as they were before it; observers hear Fluxion.travel
/// ```
///
/// A journal records each action that reached the stores and committed:
/// queued ones, ones middleware dispatched, and each batch as one step with
/// its actions and inline mutations. It sees an action as the stores do,
/// past every middleware, whether added before the journal or after. An
/// action the dispatcher refused — a handler threw, a payload of the wrong
/// type, a dispatch while the stores show the past or from a cancelled task,
/// a batch that failed — changed nothing and is not a step: it is recorded as
/// a refusal (``refusals``, a `refusal` line in the file), with its error and
/// reason. An action a middleware dropped is not recorded.
///
/// In memory it keeps the newest `capacity` steps. With a file, each step is
/// also written as one line of JSON, off the dispatching thread, to a file
/// only its owner can read (mode 0600). Payloads and states whose types are
/// `Codable` are written as JSON, others by their description, and marked not
/// replayable; replay decodes payloads as the types the stores' handler
/// tables name, so nothing needs registering. Values under the keys in
/// `redactingKeys` never reach the file, by any route: they are written as
/// `"‹redacted›"` in payloads, states, diffs and the descriptions of actions
/// and errors (and a redacted payload does not replay); with such keys, a
/// payload or state that is not `Codable`, which cannot be redacted by its
/// structure, is not written at all (see ``JournalError/notRedactable(action:reason:)``).
/// Errors writing the file reach ``onWriteError`` as they happen.
///
/// With no journal attached, recording costs nothing. Attached, it is not a
/// middleware: the dispatcher hands it each action, typed, as the action
/// reaches the stores, and it learns which stores changed from their commit
/// counts, without observing them, so in-place changes stay in place. A file
/// is written on the journal's own queue, woken once per burst of steps; each
/// value is encoded to JSON once. Two store types of one name (nested, or in
/// two modules) are told apart in the file by their qualified names. What it
/// costs is in <doc:Performance> (W13, W13d, W13f).
public final class Journal: Sendable {
    struct Contents {
        var entries: JournalEntries
        var nextSequence = 1
        /// The step the stores were moved to; `nil` at the present.
        var position: Int? {
            didSet { showsPast.set(position != nil) }
        }
        /// Whether `position` is set, for the dispatching thread to read without the lock.
        let showsPast: AtomicFlag
        /// The journal's own travel runs: its inline mutations are let through.
        var isMoving = false
        var middleware: MiddlewareID?
        /// The key of the journal's observer of effects.
        var effectObserver: Int?
        /// The effects still running of the steps a resume dropped, by the step's serial, with its number:
        /// the file records their ends too (see `Journal+Effects.swift`).
        var droppedEffects: [UInt64: (sequence: Int, effects: [JournalRecord.Effect])] = [:]
        /// Tests' hook: runs on the travelling thread before a move takes the dispatch turn.
        var beforeMoveTakesTurn: (@Sendable () -> Void)?

        /// The newest refusals, oldest first: as many as the journal's capacity of steps.
        var refusals: [JournalRefusal.Entry] = []

        /// Whether a step that commits now is recorded: the journal runs, and it is not its own travel.
        var isRecording: Bool { !isMoving && middleware != nil }

        /// Appends the entry of a step, numbered on from the last.
        mutating func append(
            _ action: consuming AnyAction, step: (serial: UInt64, cause: StepCause), time: Date,
            changes: consuming JournalEntries.Changes
        ) {
            entries.append(
                JournalEntries.Entry(
                    sequence: nextSequence, serial: step.serial, cause: entries.cause(step.cause), action: action,
                    time: time, recorded: changes))
            nextSequence += 1
        }

        /// Appends a refusal, after the last step (or the step the stores show), forgetting the oldest
        /// beyond the capacity; returns it.
        mutating func appendRefusal(
            _ action: AnyAction, error: any Error, reason: JournalRefusal.Reason, cause: StepCause, time: Date
        ) -> JournalRefusal.Entry {
            let refused = JournalRefusal.Entry(
                afterStep: position ?? nextSequence - 1, action: action, error: error, reason: reason,
                cause: entries.cause(cause), time: time)
            if refusals.count == entries.capacity { refusals.removeFirst() }
            refusals.append(refused)
            return refused
        }
    }

    /// The dispatcher whose actions are recorded.
    public let dispatcher: Dispatcher
    /// How many steps the journal keeps in memory; older ones are forgotten (not in the file).
    public let capacity: Int
    let contents: Guarded<Contents>
    /// Whether the stores show the past: `Contents.position` is set.
    let showsPast = AtomicFlag()
    /// The stores' states as the journal last saw them; only the dispatch turn holder touches it.
    let tracker = JournalTracker()
    let writer: JournalWriter?
    let errors = JournalErrorReporter()

    /// Starts recording the actions of `dispatcher`.
    ///
    /// A dispatcher has one journal at a time: while another journal records
    /// it, this throws ``JournalError/alreadyRecorded(by:)``, naming that
    /// journal's file (or that it records in memory), and opens no file. Once
    /// the first has stopped — ``stop()``, or it was let go — a new one may
    /// attach.
    ///
    /// A journal never destroys what is not its own: given a file, it creates
    /// it where nothing is, or replaces an earlier Fluxion journal (of any
    /// version). A directory, a symbolic link (even to a journal), a device or
    /// a file that is not a journal, an empty one included, is refused with
    /// ``JournalError/notReplaceable(path:reason:)`` and left untouched.
    ///
    /// ```swift
    /// do {
    ///     journal = try Journal(recording: dispatcher, writingTo: sessionURL, redactingKeys: ["password"])
    /// } catch JournalError.notReplaceable(let path, let reason) {
    ///     print("pick another file than \(path): \(reason)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - dispatcher: The dispatcher to record.
    ///   - capacity: How many steps to keep in memory, the newest.
    ///   - file: Where to write every step as JSON Lines: a new file, or an earlier journal to replace.
    ///   - redactingKeys: Keys whose values never reach the file: object keys of a payload or state as JSON,
    ///     at any depth, and the property names and dictionary keys its diffs and descriptions print.
    /// - Throws: ``JournalError/alreadyRecorded(by:)`` while another journal records `dispatcher`;
    ///   ``JournalError/notReplaceable(path:reason:)`` when `file` names anything but an earlier
    ///   journal or nothing; ``JournalError/unreadableFile(path:reason:)`` when the file cannot be created
    ///   or written.
    public convenience init(
        recording dispatcher: Dispatcher,
        capacity: Int = 1_000,
        writingTo file: URL? = nil,
        redactingKeys: Set<String> = []
    ) throws {
        try self.init(
            recording: dispatcher, capacity: capacity, writingTo: file, redactingKeys: redactingKeys, calls: .system)
    }

    /// Starts recording, writing the file through `calls`: tests pass calls that fail.
    init(
        recording dispatcher: Dispatcher,
        capacity: Int = 1_000,
        writingTo file: URL?,
        redactingKeys: Set<String> = [],
        calls: FileSystemCalls
    ) throws {
        self.dispatcher = dispatcher
        self.capacity = max(capacity, 1)
        contents = Guarded(Contents(entries: JournalEntries(capacity: capacity), showsPast: showsPast))
        // NB: refused before its file is opened, so that a refused journal touches no file. A journal that
        // loses a race to attach is refused by `attach`, and its file closed as it is let go.
        try dispatcher.refuseSecondJournal()
        writer = try file.map { [errors, contents] in
            try JournalWriter(
                url: $0, redacting: redactingKeys, errorTypes: dispatcher.replayableErrors, calls: calls,
                errors: errors, lock: contents.lock)
        }
        let id = try dispatcher.attach(
            JournalRecorder(contents: contents, showsPast: showsPast, tracker: tracker, writer: writer))
        let observer = dispatcher.observeTaskEvents { [weak self] in self?.note($0) }
        contents.withLock {
            $0.middleware = id
            $0.effectObserver = observer
        }
    }

    deinit {
        stop()
    }

    /// Stops recording: the dispatcher lets the journal's recorder go, and its file is flushed and closed.
    ///
    /// The steps in memory stay, to read and replay. Stopped while the stores
    /// show the past, they keep those states, and the archives of persistent
    /// stores keep the present until the next action changes them; the
    /// dispatches tasks made meanwhile, held for the present, are dropped and
    /// reported to ``Dispatcher/onTaskError``.
    public func stop() {
        let (id, observer) = contents.withLock { contents in
            defer { (contents.middleware, contents.effectObserver) = (nil, nil) }
            return (contents.middleware, contents.effectObserver)
        }
        if let id { dispatcher.removeMiddleware(id) }
        if let observer { dispatcher.stopObservingTaskEvents(observer) }
        // NB: stopped in the past, the journal holds nothing: the stores keep the past states it set.
        let position = contents.withLock { contents in
            defer { contents.position = nil }
            return contents.position
        }
        if let position {
            dispatcher.showPast(false)
            dispatcher.dropHeldDispatches(at: position)
        }
        writer?.close()
    }

    /// Waits until every step recorded so far is in the file.
    public func flush() {
        writer?.flush()
    }

    /// The file the steps are written to, if any.
    public var fileURL: URL? { writer?.url }

    /// The first error writing the file met, if any: the file lacks that step's line from there on.
    ///
    /// Writing goes on after an error, and ``onWriteError`` hears of each one as it happens.
    public var fileError: JournalError? { writer?.error }

    /// The steps in memory, oldest first, each with the diff of every store it changed.
    public var records: [JournalRecord] {
        contents.withLock { $0.entries.all }.map { JournalRecord($0, errorTypes: dispatcher.replayableErrors) }
    }

    /// The refusals in memory, oldest first: the actions the dispatcher refused while the journal recorded.
    ///
    /// ```swift
    /// try? dispatcher.dispatch(.addTodo, payload: "")
    /// print(journal.refusals.last!)  // ✗ addTodo() ! emptyTitle (thrown) after #2
    /// ```
    public var refusals: [JournalRefusal] {
        contents.withLock { $0.refusals }.map { JournalRefusal($0, errorTypes: dispatcher.replayableErrors) }
    }

    /// Ends the journal's own travel: actions from here on are recorded, or refused in the past.
    func endMoving() {
        contents.withLock { $0.isMoving = false }
    }
}
