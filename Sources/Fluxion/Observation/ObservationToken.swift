/// Keeps an observer alive; cancelling or releasing it stops the observer.
///
/// ```swift
/// var token: ObservationToken? = store.observe { change in print(change.newState) }
/// token = nil  // no more calls
/// ```
///
/// Once ``cancel()`` returns, the observer is not called again for any later
/// change (a call already under way on another thread finishes).
public final class ObservationToken: @unchecked Sendable {  // `anchor` and `cancellation` guarded by `lock`
    /// The object an observer holds weakly: it lives until the token is cancelled or released.
    final class Anchor: Sendable {}

    private let lock = Lock()
    private var anchor: Anchor?
    private var cancellation: (@Sendable () -> Void)?

    /// Creates a token that keeps `anchor` alive and runs `cancellation` once when cancelled.
    init(keeping anchor: Anchor, cancellation: @escaping @Sendable () -> Void) {
        self.anchor = anchor
        self.cancellation = cancellation
    }

    deinit {
        cancel()
    }

    /// Whether the token has been cancelled.
    public var isCancelled: Bool {
        lock.withLock { anchor == nil }
    }

    /// Stops the observer; calling it again does nothing.
    public func cancel() {
        let cancellation = lock.withLock {
            defer { self.cancellation = nil }
            anchor = nil  // observers holding the anchor weakly see `nil` from now on
            return self.cancellation
        }
        cancellation?()
    }
}
