import Fluxion

/// What a ``TestDispatcher`` knows: the stores it tracks, their states as last asserted, and the
/// actions that reached the stores and the task errors that wait to be asserted.
final class TestLog: Sendable {
    /// One action that reached the stores, and every tracked store's state after it.
    struct Step: Sendable {
        let action: AnyAction
        let states: [ObjectIdentifier: any Sendable]
    }

    /// A store the test dispatcher tracks.
    struct Tracked: Sendable {
        let name: String
        let read: @Sendable () -> any Sendable
        let isEqual: @Sendable (any Sendable, any Sendable) -> Bool
    }

    /// How a tracked computed store's state follows its sources': what an expectation derives it with.
    struct Derivation: Sendable {
        let sources: [ObjectIdentifier]
        /// The state, from states that hold every source's; `nil` when one is missing.
        let derive: @Sendable ([ObjectIdentifier: any Sendable]) throws -> (any Sendable)?
    }

    private struct Contents {
        var tracked: [(id: ObjectIdentifier, store: Tracked)] = []
        /// The tracked computed stores, in the order they were registered (a source before what it computes).
        var derivations: [(id: ObjectIdentifier, derivation: Derivation)] = []
        var known: [ObjectIdentifier: any Sendable] = [:]
        /// The states after the last step recorded, or as tracked: what an action that threw is compared with.
        var latest: [ObjectIdentifier: any Sendable] = [:]
        var steps: [Step] = []
        var taskErrors: [TaskError] = []
    }

    private let contents = Guarded(Contents())
    /// Told when a step or a task error is recorded.
    private let recorded = Signal()

    func track(_ id: ObjectIdentifier, _ store: Tracked) {
        let state = store.read()
        contents.withLock {
            $0.tracked.append((id, store))
            $0.known[id] = state
            $0.latest[id] = state
        }
    }

    var trackedStores: [(id: ObjectIdentifier, store: Tracked)] { contents.withLock { $0.tracked } }

    /// Derives the tracked computed store `id` in expectations from now on.
    func derive(_ id: ObjectIdentifier, with derivation: Derivation) {
        contents.withLock { $0.derivations.append((id, derivation)) }
    }

    var derivations: [(id: ObjectIdentifier, derivation: Derivation)] { contents.withLock { $0.derivations } }

    /// The tracked stores' states as last asserted.
    var knownStates: [ObjectIdentifier: any Sendable] {
        get { contents.withLock { $0.known } }
        set { contents.withLock { $0.known = newValue } }
    }

    /// The tracked stores' states now, as the calling thread sees them.
    func readStates() -> [ObjectIdentifier: any Sendable] {
        var states: [ObjectIdentifier: any Sendable] = [:]
        for (id, store) in trackedStores { states[id] = store.read() }
        return states
    }

    /// Records an action that reached the stores, with the states after it; called on the dispatching thread.
    func record(_ action: AnyAction) {
        let states = readStates()
        contents.withLock {
            $0.steps.append(Step(action: action, states: states))
            $0.latest = states
        }
        recorded.notify()
    }

    /// Records an action that threw, if the stores changed since the last step: it committed before
    /// the error, which a middleware threw after passing it on. Called on the dispatching thread,
    /// holding the dispatch turn, so that no other action runs meanwhile.
    func recordIfChanged(_ action: AnyAction) {
        let (tracked, latest) = contents.withLock { ($0.tracked, $0.latest) }
        let states = readStates()
        let isChanged = tracked.contains { id, store in
            guard let before = latest[id], let after = states[id] else { return false }
            return !store.isEqual(before, after)
        }
        if isChanged { record(action) }
    }

    /// Takes the oldest step not asserted yet.
    func takeStep() -> Step? {
        contents.withLock { $0.steps.isEmpty ? nil : $0.steps.removeFirst() }
    }

    /// Takes the oldest step not asserted yet if it is of an action named `name`.
    func takeStep(named name: String) -> Step? {
        contents.withLock { $0.steps.first?.action.name == name ? $0.steps.removeFirst() : nil }
    }

    /// Takes every step not asserted yet.
    func takeSteps() -> [Step] {
        contents.withLock { contents in
            defer { contents.steps = [] }
            return contents.steps
        }
    }

    /// Takes the oldest step, waiting for one until `deadline`.
    func takeStep(before deadline: ContinuousClock.Instant) async -> Step? {
        await take(before: deadline) { $0.steps.isEmpty ? nil : $0.steps.removeFirst() }
    }

    /// Records an error of a task the dispatcher tracks; called on the task's thread.
    func record(_ error: TaskError) {
        contents.withLock { $0.taskErrors.append(error) }
        recorded.notify()
    }

    /// The task errors not asserted yet, oldest first, left in place.
    var taskErrors: [TaskError] { contents.withLock { $0.taskErrors } }

    /// Takes every task error not asserted yet.
    func takeTaskErrors() -> [TaskError] {
        contents.withLock { contents in
            defer { contents.taskErrors = [] }
            return contents.taskErrors
        }
    }

    /// Takes the oldest task error, waiting for one until `deadline`.
    func takeTaskError(before deadline: ContinuousClock.Instant) async -> TaskError? {
        await take(before: deadline) { $0.taskErrors.isEmpty ? nil : $0.taskErrors.removeFirst() }
    }

    /// Takes what `remove` removes, waiting for something to be recorded until `deadline`.
    private func take<Value>(
        before deadline: ContinuousClock.Instant,
        _ remove: (inout Contents) -> Value?
    ) async -> Value? {
        while true {
            let generation = recorded.generation
            if let value = contents.withLock(remove) { return value }
            guard ContinuousClock.now < deadline else { return nil }
            await recorded.wait(after: generation, until: deadline)
        }
    }
}

/// Records each action that passes through it once the stores have handled it; a batch as one
/// action, once it has committed.
struct StepRecorder: Middleware {
    let log: TestLog

    func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
        let changes: [AnyStoreChange]
        do {
            changes = try next(action)
        } catch {
            // NB: a middleware added after this one may throw after its own `next`: the action has
            // committed then, and its changes must be asserted. One added before runs outside this
            // one, which recorded the action already.
            if !next.dispatcher.isRunningBatch { log.recordIfChanged(action) }
            throw error
        }
        if !next.dispatcher.isRunningBatch { log.record(action) }
        return changes
    }

    var observesChanges: Bool { true }

    func batchCommitted(_ batch: AnyAction, changes: [AnyStoreChange]) {
        log.record(batch)
    }
}
