/// Holds back the work of a task started while an action runs, until that action commits.
///
/// `dispatchTask` must return its task at once; when it is called from a
/// handler, the task's work waits here. The action's commit opens the gate
/// with the task's registration; its rollback drops it, and the work never runs.
final class TaskGate: Sendable {
    private enum State {
        case closed(CheckedContinuation<Void, Never>?)
        case open(TrackedTask)
        case dropped
    }

    private let state = Guarded(State.closed(nil))

    /// Waits for the gate to open; returns the task's registration, or `nil` when it was dropped.
    func wait() async -> TrackedTask? {
        await withCheckedContinuation { continuation in
            let isSettled = state.withLock { state in
                guard case .closed = state else { return true }
                state = .closed(continuation)
                return false
            }
            if isSettled { continuation.resume() }
        }
        // NB: the outcome is read under the lock once resumed, so that what the opener wrote before it
        // opened (the task's owner, its registry fields) is seen whichever way the wait ended: a resume
        // that came before the wait suspended is ordered by the runtime alone, unseen by ThreadSanitizer.
        return state.withLock { state in
            guard case .open(let task) = state else { return nil }
            return task
        }
    }

    /// Lets the work run as `task`.
    func open(as task: TrackedTask) {
        settle(.open(task))
    }

    /// Keeps the work from ever running; does nothing once the gate is open.
    func drop() {
        settle(.dropped)
    }

    private func settle(_ outcome: State) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>?? in
            guard case .closed(let waiter) = state else { return nil }
            state = outcome
            return .some(waiter)
        }
        if let waiter = waiter ?? nil { waiter.resume() }
    }
}

/// Drops its gate when it is released without having opened it: the action that would have opened
/// it rolled back, and its queued work with it.
final class TaskGateKeeper: Sendable {
    let gate: TaskGate

    init(_ gate: TaskGate) {
        self.gate = gate
    }

    deinit {
        gate.drop()
    }
}
