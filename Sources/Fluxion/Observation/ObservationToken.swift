/// Keeps an observer alive; cancelling or releasing the token stops the observer.
///
/// ```swift
/// var token: ObservationToken? = store.observe { change in print(change.newState) }
/// token = nil  // no more calls
/// ```
///
/// Once ``cancel()`` returns the observer is not called again (a call already
/// under way on another thread finishes). Cancelling takes O(1) time.
public final class ObservationToken: Sendable {
    private let observer: any Cancellable

    @usableFromInline
    init(_ observer: any Cancellable) {
        self.observer = observer
    }

    deinit {
        observer.cancel()
    }

    /// Whether the observer will not be called again: the token was cancelled, or the store is gone.
    public var isCancelled: Bool {
        observer.isCancelled
    }

    /// Stops the observer; calling it again does nothing.
    public func cancel() {
        observer.cancel()
    }
}
