/// Keeps an observer alive; cancelling or releasing the token stops the observer.
///
/// ```swift
/// var token: ObservationToken? = store.observe { change in print(change.newState) }
/// token = nil  // no more calls
/// ```
///
/// Once ``cancel()`` returns the observer is not called again (a call already
/// under way on another thread finishes). Cancelling takes O(1) time.
public final class ObservationToken: @unchecked Sendable {  // `observer` guarded by `lock`
    private let lock = Lock()
    @exclusivity(unchecked) private var observer: (any Cancellable)?

    init(_ observer: any Cancellable) {
        self.observer = observer
    }

    deinit {
        observer?.cancel()
    }

    /// Whether the token has been cancelled.
    public var isCancelled: Bool {
        lock.withLock { observer == nil }
    }

    /// Stops the observer; calling it again does nothing.
    public func cancel() {
        let observer = lock.withLock {
            defer { self.observer = nil }
            return self.observer
        }
        // NB: cancelled, and released, outside the lock: releasing may run user deinits.
        observer?.cancel()
    }
}
