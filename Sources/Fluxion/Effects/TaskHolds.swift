/// How many tracked tasks may still hold their dispatcher — tracked, and not yet past letting go of it — and
/// who waits for none to: ``Dispatcher/shutdown()`` returns only then.
///
/// NB: a task is forgotten under the dispatcher's lock, and lets go of the dispatcher after it: the last task
/// to be forgotten resumes the drain waiters while another, forgotten a moment before, may still hold the
/// dispatcher. Kept apart from the dispatcher's state, which holds the stores, so that a task lets go of
/// both before it tells of its release.
final class TaskHolds: Sendable {
    private struct Holds {
        var count = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let holds = Guarded(Holds())

    /// How many wait for no task to hold the dispatcher.
    var waiterCount: Int {
        holds.withLock { $0.waiters.count }
    }

    /// Counts `count` more tasks that hold the dispatcher; call as they are tracked.
    func add(_ count: Int) {
        holds.withLock { $0.count += count }
    }

    /// Counts one task less, and resumes the waiters if it was the last.
    func release() {
        let waiters = holds.withLock { holds -> [CheckedContinuation<Void, Never>] in
            holds.count -= 1
            guard holds.count == 0 else { return [] }
            defer { holds.waiters = [] }
            return holds.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once no tracked task holds the dispatcher.
    func waitUntilNone() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let isNone = holds.withLock { holds -> Bool in
                if holds.count == 0 { return true }
                holds.waiters.append(waiter)
                return false
            }
            if isNone { waiter.resume() }
        }
    }
}
