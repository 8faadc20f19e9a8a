import Fluxion
import Foundation

/// What a ``TestDispatcher`` knows: the stores it tracks, their states as last asserted, and the
/// actions that reached the stores and wait to be asserted.
final class TestLog: @unchecked Sendable {  // every `var` below is guarded by `lock`
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

    private let lock = NSLock()
    private var tracked: [(id: ObjectIdentifier, store: Tracked)] = []
    private var known: [ObjectIdentifier: any Sendable] = [:]
    private var steps: [Step] = []
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func track(_ id: ObjectIdentifier, _ store: Tracked) {
        let state = store.read()
        lock.withLock {
            tracked.append((id, store))
            known[id] = state
        }
    }

    var trackedStores: [(id: ObjectIdentifier, store: Tracked)] { lock.withLock { tracked } }

    /// The tracked stores' states as last asserted.
    var knownStates: [ObjectIdentifier: any Sendable] {
        get { lock.withLock { known } }
        set { lock.withLock { known = newValue } }
    }

    /// Records an action that reached the stores, with the states after it; called on the dispatching thread.
    func record(_ action: AnyAction) {
        let stores = trackedStores
        var states: [ObjectIdentifier: any Sendable] = [:]
        for (id, store) in stores { states[id] = store.read() }
        let resumed = lock.withLock {
            steps.append(Step(action: action, states: states))
            defer { waiters = [] }
            return waiters
        }
        for waiter in resumed { waiter.resume() }
    }

    /// Takes the oldest step not asserted yet.
    func takeStep() -> Step? {
        lock.withLock { steps.isEmpty ? nil : steps.removeFirst() }
    }

    /// Takes every step not asserted yet.
    func takeSteps() -> [Step] {
        lock.withLock {
            defer { steps = [] }
            return steps
        }
    }

    /// Takes the oldest step, waiting for one until `deadline`.
    func takeStep(before deadline: ContinuousClock.Instant) async -> Step? {
        while true {
            if let step = takeStep() { return step }
            guard ContinuousClock.now < deadline else { return nil }
            let timer = Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                self?.wakeWaiters()
            }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // NB: checked under the lock the timer wakes through: a timer that fired already
                // left the deadline behind, so this does not wait.
                let isReady = lock.withLock {
                    guard steps.isEmpty, ContinuousClock.now < deadline else { return true }
                    waiters.append(continuation)
                    return false
                }
                if isReady { continuation.resume() }
            }
            timer.cancel()
        }
    }

    private func wakeWaiters() {
        let resumed = lock.withLock {
            defer { waiters = [] }
            return waiters
        }
        for waiter in resumed { waiter.resume() }
    }
}

/// Records each action that passes through it, once the stores have handled it.
struct StepRecorder: Middleware {
    let log: TestLog

    func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
        let changes = try next(action)
        log.record(action)
        return changes
    }
}
