import Fluxion
import Foundation

/// A persistence scheduler whose clock moves only when a test advances it.
///
/// Work comes due in deadline order and runs on the thread that calls
/// ``advance(by:)``, with the clock set to its deadline; nothing runs on its own.
final class ManualScheduler: PersistenceScheduler, @unchecked Sendable {  // vars guarded by lock
    private struct Item {
        let deadline: Duration
        let order: Int
        let work: @Sendable () -> Void
    }

    private let lock = NSLock()
    private var time = Duration.zero
    private var items: [Item] = []
    private var scheduled = 0

    init() {}

    var now: Duration {
        lock.withLock { time }
    }

    /// How many timers are waiting to come due.
    var pendingCount: Int {
        lock.withLock { items.count }
    }

    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        lock.withLock {
            scheduled += 1
            items.append(Item(deadline: time + max(delay, .zero), order: scheduled, work: work))
        }
    }

    /// Moves the clock forward by `duration`, running the work that comes due meanwhile, in order.
    func advance(by duration: Duration) {
        let end = lock.withLock { time + duration }
        while let work = nextDue(before: end) {
            work()
        }
    }

    private func nextDue(before end: Duration) -> (@Sendable () -> Void)? {
        lock.withLock {
            let next = items.indices.min {
                (items[$0].deadline, items[$0].order) < (items[$1].deadline, items[$1].order)
            }
            guard let next, items[next].deadline <= end else {
                time = max(time, end)
                return nil
            }
            let item = items.remove(at: next)
            time = max(time, item.deadline)
            return item.work
        }
    }
}
