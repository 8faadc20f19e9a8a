import Fluxion

/// What a ``TestDispatcher`` knows: the stores it tracks, their states as last asserted, and the
/// actions that reached the stores and wait to be asserted.
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

    private struct Contents {
        var tracked: [(id: ObjectIdentifier, store: Tracked)] = []
        var known: [ObjectIdentifier: any Sendable] = [:]
        var steps: [Step] = []
    }

    private let contents = Guarded(Contents())
    private let recorded = Signal()

    func track(_ id: ObjectIdentifier, _ store: Tracked) {
        let state = store.read()
        contents.withLock {
            $0.tracked.append((id, store))
            $0.known[id] = state
        }
    }

    var trackedStores: [(id: ObjectIdentifier, store: Tracked)] { contents.withLock { $0.tracked } }

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
        let step = Step(action: action, states: readStates())
        contents.withLock { $0.steps.append(step) }
        recorded.notify()
    }

    /// Takes the oldest step not asserted yet.
    func takeStep() -> Step? {
        contents.withLock { $0.steps.isEmpty ? nil : $0.steps.removeFirst() }
    }

    /// The oldest step not asserted yet, left in place.
    func peekStep() -> Step? {
        contents.withLock { $0.steps.first }
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
        while true {
            let generation = recorded.generation
            if let step = takeStep() { return step }
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
        let changes = try next(action)
        if !next.dispatcher.isRunningBatch { log.record(action) }
        return changes
    }

    var observesChanges: Bool { true }

    func batchCommitted(_ batch: AnyAction, changes: [AnyStoreChange]) {
        log.record(batch)
    }
}
