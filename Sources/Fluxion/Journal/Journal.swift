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
/// A journal records each action that passed its middleware and committed:
/// queued ones, ones middleware dispatched, and each batch as one step with
/// its actions and inline mutations. An action a handler rejected changed
/// nothing and is not recorded. Create the journal after adding your other
/// middleware: it records actions as they reach it, last in the chain.
///
/// In memory it keeps the newest `capacity` steps. With a file, each step is
/// also written as one line of JSON, off the dispatching thread, to a file
/// only its owner can read (mode 0600). Payloads and states whose types are
/// `Codable` are written as JSON, others by their description, and marked not
/// replayable; replay decodes payloads as the types the stores' handler
/// tables name, so nothing needs registering. Values under the keys in
/// `redactingKeys` are written as `"‹redacted›"` (and do not replay).
///
/// With no journal attached, recording costs nothing: the journal is a
/// middleware, and a dispatcher without middleware skips the chain.
public final class Journal: Sendable {
    struct Contents {
        var entries: JournalEntries
        var nextSequence = 1
        /// The step the stores were moved to; `nil` at the present.
        var position: Int?
        /// The journal's own travel runs: its inline mutations are let through.
        var isMoving = false
        var middleware: MiddlewareID?
        /// The key of the journal's observer of effects.
        var effectObserver: Int?
    }

    /// The dispatcher whose actions are recorded.
    public let dispatcher: Dispatcher
    /// How many steps the journal keeps in memory; older ones are forgotten (not in the file).
    public let capacity: Int
    let contents: Guarded<Contents>
    let writer: JournalWriter?

    /// Starts recording the actions of `dispatcher`.
    ///
    /// - Parameters:
    ///   - dispatcher: The dispatcher to record.
    ///   - capacity: How many steps to keep in memory, the newest.
    ///   - file: Where to write every step as JSON Lines; the file is replaced.
    ///   - redactingKeys: Object keys whose values never reach the file, at any depth of a payload or state.
    /// - Throws: ``JournalError/unreadableFile(path:reason:)`` when the file cannot be created.
    public init(
        recording dispatcher: Dispatcher,
        capacity: Int = 1_000,
        writingTo file: URL? = nil,
        redactingKeys: Set<String> = []
    ) throws {
        self.dispatcher = dispatcher
        self.capacity = max(capacity, 1)
        contents = Guarded(Contents(entries: JournalEntries(capacity: capacity)))
        writer = try file.map { try JournalWriter(url: $0, redacting: redactingKeys) }
        let id = dispatcher.addMiddleware(JournalRecorder(journal: self))
        let observer = dispatcher.observeTaskEvents { [weak self] in self?.note($0) }
        contents.withLock {
            $0.middleware = id
            $0.effectObserver = observer
        }
    }

    deinit {
        stop()
    }

    /// Stops recording: the journal leaves the middleware chain, and its file is flushed and closed.
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

    /// The first error writing the file met; writing stops there.
    public var fileError: JournalError? { writer?.error }

    /// The steps in memory, oldest first, each with the diff of every store it changed.
    public var records: [JournalRecord] {
        contents.withLock { $0.entries.all }.map(JournalRecord.init)
    }

    /// Refuses an action while the stores show the past, unless it is the journal's own travel; a task's
    /// refused action (in a batch: its plain dispatches are held) is reported to the task error hook.
    func admit(_ action: AnyAction, by dispatcher: Dispatcher) throws {
        do {
            try contents.withLock { contents in
                guard let position = contents.position, !contents.isMoving else { return }
                throw JournalError.travelling(action: action.name, step: position)
            }
        } catch {
            if let task = dispatcher.currentTask {
                dispatcher.report(TaskError(.refused, taskID: task.id?.value, action: action.name, error: error))
            }
            throw error
        }
    }

    /// Records an action that committed, with its changes and the step it was; called on the turn holder, in order.
    func record(_ action: AnyAction, changes: [AnyStoreChange], step: (serial: UInt64, cause: StepCause)) {
        let changes = changes.compactMap { change in
            (change.store as? any StateReplacing).map {
                JournalEntries.Change(store: $0, oldState: change.oldState, newState: change.newState)
            }
        }
        let entry = contents.withLock { contents -> JournalEntries.Entry? in
            guard !contents.isMoving, contents.middleware != nil else { return nil }
            let entry = JournalEntries.Entry(
                sequence: contents.nextSequence, serial: step.serial, cause: contents.entries.cause(step.cause),
                action: action, time: Date(), changes: changes)
            contents.nextSequence += 1
            contents.entries.append(entry)
            return entry
        }
        if let entry { writer?.write(entry) }
    }

    /// Ends the journal's own travel: actions from here on are recorded, or refused in the past.
    func endMoving() {
        contents.withLock { $0.isMoving = false }
    }
}

/// The middleware through which a journal records: the last in the chain, it sees actions as
/// they reach the stores, and the changes they made.
struct JournalRecorder: Middleware {
    weak var journal: Journal?

    func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
        guard let journal else { return try next(action) }
        try journal.admit(action, by: next.dispatcher)
        let changes = try next(action)
        // NB: a batch's actions are recorded as one step, once the batch has committed.
        let dispatcher = next.dispatcher
        if !dispatcher.isRunningBatch { journal.record(action, changes: changes, step: dispatcher.runningStep) }
        return changes
    }

    var observesChanges: Bool { true }

    func batchCommitted(_ batch: AnyAction, changes: [AnyStoreChange]) {
        guard let journal else { return }
        guard batch.name != AnyAction.travelName else { return journal.endMoving() }
        journal.record(batch, changes: changes, step: journal.dispatcher.runningStep)
    }
}
