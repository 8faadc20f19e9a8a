/// Stops an owner-bound observer before its owner deallocates; releasing the handle changes nothing.
///
/// Every `observe(owner:…)` form returns one. Most callers discard it: the
/// observer stops when its owner deallocates. Keep it to stop one observer
/// early while the owner lives on:
///
/// ```swift
/// let handle = store.observe(owner: self) { owner, change in owner.render(change.newState) }
/// …
/// handle.cancel()  // no more calls; the owner lives on
/// ```
///
/// Unlike an ``ObservationToken``, a handle does not keep its observer
/// alive, and releasing it does not cancel. The handle keeps neither the
/// owner nor the store alive.
///
/// Once ``cancel()`` returns, no change committed later reaches the
/// observer, and no queued call (`on: queue`, the main actor) that has not
/// been let through yet runs. What it does not stop is a call another thread
/// is making: one already running, or one that a delivery on another thread
/// let through just before the cancel (a delivery checks each observer, then
/// calls it). At most one such call can run, or even start, after
/// ``cancel()`` returns; ``cancel()`` does not wait for it, so it cannot
/// deadlock with it. No call at all follows a cancel made on the thread that
/// delivers (inside a handler or an observer of the same dispatcher), or,
/// for an observer called on a serial queue or the main actor, on that queue.
/// To free what an observer uses, cancel it there, or let the observer hold
/// it: a call holds its owner.
public final class ObservationHandle: @unchecked Sendable {  // `cancellation` guarded by `lock`
    /// The lock of the observer's list (a store's, or a dispatcher's relay's).
    private let lock: Lock
    private var cancellation: (@Sendable () -> Void)?

    @usableFromInline
    init(lock: Lock, cancel: @escaping @Sendable () -> Void) {
        self.lock = lock
        cancellation = cancel
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        lock.withLock { cancellation == nil }
    }

    /// Stops the observer; calling it again does nothing.
    public func cancel() {
        lock.lock()
        let cancel = cancellation.take()
        lock.unlock()
        cancel?()  // NB: outside the lock: it takes the lock itself, and releases the observer
    }
}
