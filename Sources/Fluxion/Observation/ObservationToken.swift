/// Keeps an observer alive; cancelling or releasing the token stops the observer.
///
/// ```swift
/// var token: ObservationToken? = store.observe { change in print(change.newState) }
/// token = nil  // no more calls
/// ```
///
/// Once ``cancel()`` returns, no change committed later reaches the
/// observer; only a call that another thread is making, or has just let
/// through (at most one), can still run, and ``cancel()`` does not wait for
/// it. A cancel made on the delivering thread, or on the serial queue the
/// observer is called on, leaves no call at all. See ``ObservationHandle``
/// for the details. Cancelling takes O(1) time.
public final class ObservationToken: @unchecked Sendable {  // `observer` guarded by `lock`, the store's lock
    private let lock: Lock
    private var observer: (any Cancellable)?

    @usableFromInline
    init(_ observer: any Cancellable, lock: Lock) {
        self.observer = observer
        self.lock = lock
    }

    deinit {
        observer?.cancel()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        lock.withLock { observer == nil }
    }

    /// Stops the observer and releases its closure; calling it again does nothing.
    public func cancel() {
        lock.lock()
        let observer = self.observer
        self.observer = nil
        lock.unlock()
        observer?.cancel()
        // NB: the observer, and with it the closure, is released here, outside the lock.
    }
}
