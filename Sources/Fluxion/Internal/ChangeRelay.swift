/// The observers of every store of one dispatcher, fed by one forwarding observer on each store.
///
/// Whole-dispatcher observers are few (loggers, tools), so the list is a plain
/// array: adding appends, cancelling removes in O(n).
final class ChangeRelay: @unchecked Sendable {  // `observers` guarded by `lock`; `collected` owned by the turn holder
    let lock = Lock()
    @exclusivity(unchecked) private var observers: [RelayObserver] = []
    /// The changes of the action running now, for the middleware; only the turn holder touches it.
    @exclusivity(unchecked) private var collected: [AnyStoreChange]?

    init() {}

    func add(_ observer: RelayObserver) {
        lock.withLock { observers.append(observer) }
    }

    /// Starts gathering the changes delivered from now on; the turn holder calls it.
    func startCollecting() {
        collected = []
    }

    /// Stops gathering changes, and returns those gathered.
    func stopCollecting() -> [AnyStoreChange] {
        defer { collected = nil }
        return collected ?? []
    }

    /// Tells every observer about `change`, in the order they were added; on the dispatching thread.
    func deliver(_ change: AnyStoreChange) {
        collected?.append(change)
        let observers = lock.withLock { self.observers }
        var sawGone = false
        for observer in observers where !observer.notify(change, lock: lock) { sawGone = true }
        if sawGone { remove { $0.isGone } }
    }

    /// Removes the observers `isRemoved` picks; call with no lock held.
    ///
    /// NB: `isRemoved` runs outside the lock (it may load a weak owner, and so
    /// be the one to release it), and so do the releases of the removed observers.
    func remove(where isRemoved: (RelayObserver) -> Bool) {
        let removed = Set(lock.withLock { observers }.filter(isRemoved).map(ObjectIdentifier.init))
        guard !removed.isEmpty else { return }
        var old: [RelayObserver] = []
        lock.withLock {
            old = observers.filter { !removed.contains(ObjectIdentifier($0)) }
            swap(&old, &observers)
        }
    }
}

/// An observer of every store of a dispatcher.
class RelayObserver {
    /// Calls the observer with `change`; `false` when the observer is gone.
    func notify(_ change: AnyStoreChange, lock: Lock) -> Bool { false }

    /// Whether the observer is gone for good; called with no lock held.
    var isGone: Bool { true }
}

/// A whole-dispatcher observer that lives as long as its owner.
final class OwnedRelayObserver<Owner: AnyObject & Sendable>: RelayObserver {
    private weak var owner: Owner?
    private let body: @Sendable (Owner, AnyStoreChange) -> Void

    init(owner: Owner, body: @escaping @Sendable (Owner, AnyStoreChange) -> Void) {
        self.owner = owner
        self.body = body
    }

    override func notify(_ change: AnyStoreChange, lock: Lock) -> Bool {
        guard let owner else { return false }
        body(owner, change)
        return true
    }

    override var isGone: Bool { owner == nil }
}

/// A whole-dispatcher observer that lives until its token is cancelled or released.
final class TokenRelayObserver: RelayObserver, Cancellable, @unchecked Sendable {  // `isCancelled`: relay's lock
    private let relay: ChangeRelay
    private let body: @Sendable (AnyStoreChange) -> Void
    @exclusivity(unchecked) private var isCancelled = false

    init(relay: ChangeRelay, body: @escaping @Sendable (AnyStoreChange) -> Void) {
        self.relay = relay
        self.body = body
    }

    override func notify(_ change: AnyStoreChange, lock: Lock) -> Bool {
        // NB: read under the lock for each change, so no call follows a finished `cancel()`.
        guard !lock.withLock({ isCancelled }) else { return false }
        body(change)
        return true
    }

    override var isGone: Bool { relay.lock.withLock { isCancelled } }

    func cancel() {
        relay.lock.withLock { isCancelled = true }
        relay.remove { $0 === self }
    }
}
