import Fluxion

/// Wakes the tasks waiting for something to change, each no later than its deadline.
///
/// A waiter reads ``generation`` before it checks its condition and waits
/// ``wait(after:until:)`` that generation: a change in between is not lost.
final class Signal: Sendable {
    private struct State {
        var generation = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Guarded(State())

    /// How many changes there have been.
    var generation: Int { state.withLock { $0.generation } }

    /// Tells the waiters something changed.
    func notify() {
        let waiters = state.withLock { state in
            state.generation += 1
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits for a change after `generation`, or until `deadline`.
    func wait(after generation: Int, until deadline: ContinuousClock.Instant) async {
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            self?.notify()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isReady = state.withLock { state in
                guard state.generation == generation, ContinuousClock.now < deadline else { return true }
                state.waiters.append(continuation)
                return false
            }
            if isReady { continuation.resume() }
        }
        timer.cancel()
    }
}
