import Foundation

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
///
/// A token released without ``cancel()`` before its store changed at all —
/// `_ = store.observe { … }`, whose observer never fires — writes a line
/// saying so to standard error, once per store type.
public final class ObservationToken: @unchecked Sendable {  // `observer` guarded by `lock`, the store's lock
    private let lock: Lock
    private var observer: (any Cancellable)?

    @usableFromInline
    init(_ observer: any Cancellable, lock: Lock) {
        self.observer = observer
        self.lock = lock
    }

    deinit {
        // NB: no other reference to the token is left, so its `observer` is read without the lock.
        guard let observer else { return }
        // NB: a token released (not cancelled) before its store changed at all was most likely
        // dropped by mistake, as in `_ = store.observe { … }`: say so, since the observer never fires.
        if let observer = observer as? any ReleaseChecking, let store = observer.storeNameIfNothingChanged() {
            Self.reportReleasedUnheard(store)
        }
        observer.cancel()
    }

    /// Where the message about a token released unheard goes: standard error, or a test's recorder.
    static let releasedUnheardReporter = Guarded<(@Sendable (String) -> Void)?>(nil)
    /// The store types already reported: once each, so that a loop does not flood standard error.
    private static let reportedStores = Guarded<Set<String>>([])

    private static func reportReleasedUnheard(_ store: String) {
        guard reportedStores.withLock({ $0.insert(store).inserted }) else { return }
        let message =
            "Fluxion: an observer of \(store) was released before the store changed, so it never fired; keep its token (`let token = store.observe { … }`) for as long as you want the changes, or cancel it"
        if let reporter = releasedUnheardReporter.withLock({ $0 }) {
            reporter(message)
        } else {
            FileHandle.standardError.write(Data((message + "\n").utf8))
        }
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        lock.withLock { observer == nil }
    }

    /// Stops the observer and releases its closure; calling it again does nothing.
    public func cancel() {
        var released: Any?
        lock.lock()
        let observer = self.observer.take()
        // NB: a store's observer is guarded by the store's lock, the token's: it is stopped in this critical section.
        let isStopped = observer?.cancel(holding: lock, releasing: &released) ?? true
        lock.unlock()
        if !isStopped { observer?.cancel() }
        withExtendedLifetime(released) {}
        // NB: the observer, and with it the closure, is released here, outside the lock.
    }
}
