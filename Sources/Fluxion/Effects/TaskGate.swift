/// Holds back the work of a task started while an action runs, until that action commits.
///
/// `dispatchTask` must return its task at once; when it is called from a
/// handler, the task's work waits here. The action's commit opens the gate
/// with the task's registration; its rollback drops it, and the work never runs.
final class TaskGate: Sendable {
    private enum State {
        case closed(CheckedContinuation<TrackedTask?, Never>?)
        case open(TrackedTask)
        case dropped
    }

    private let state = Guarded(State.closed(nil))

    /// Waits for the gate to open; returns the task's registration, or `nil` when it was dropped.
    func wait() async -> TrackedTask? {
        await withCheckedContinuation { continuation in
            let ready: TrackedTask?? = state.withLock { state in
                switch state {
                case .closed:
                    state = .closed(continuation)
                    return nil
                case .open(let task): return .some(task)
                case .dropped: return .some(nil)
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Lets the work run as `task`.
    func open(as task: TrackedTask) {
        settle(.open(task), resuming: task)
    }

    /// Keeps the work from ever running; does nothing once the gate is open.
    func drop() {
        settle(.dropped, resuming: nil)
    }

    private func settle(_ outcome: State, resuming value: TrackedTask?) {
        let waiter = state.withLock { state -> CheckedContinuation<TrackedTask?, Never>?? in
            guard case .closed(let waiter) = state else { return nil }
            state = outcome
            return .some(waiter)
        }
        if let waiter = waiter ?? nil { waiter.resume(returning: value) }
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
