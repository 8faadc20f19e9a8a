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
/// alive, and releasing it does not cancel. Once ``cancel()`` returns the
/// observer is not called again (a call already under way on another thread
/// finishes); a queued call (`on: queue`, the main actor) that has not
/// started is skipped. The handle keeps neither the owner nor the store alive.
public final class ObservationHandle: @unchecked Sendable {  // `cancellation` guarded by `lock`
    /// The lock of the observer's list (a store's, or a dispatcher's relay's).
    private let lock: Lock
    @exclusivity(unchecked) private var cancellation: (@Sendable () -> Void)?

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
