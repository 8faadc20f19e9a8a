/// The observers of every store of one dispatcher, fed by one forwarding observer on each store.
///
/// Whole-dispatcher observers are few (loggers, tools), so the list is a plain
/// array: adding appends, cancelling removes in O(n). Observers whose owners
/// are gone are dropped as the list grows, whether or not a change comes.
final class ChangeRelay: @unchecked Sendable {  // `collected` is owned by the dispatch turn holder
    private let observers = Guarded(ObserverList())
    /// The lock of the observer list, which also guards each token observer's cancellation.
    var lock: Lock { observers.lock }
    /// The changes of the action running now, for the middleware; only the turn holder touches it.
    // unchecked: checked, +128 instructions a dispatch with one dispatcher observer, +229 through one
    // middleware that observes changes (callgrind)
    @exclusivity(unchecked) private var collected: [AnyStoreChange]?

    init() {}

    /// How many observers the list holds, gone ones included until they are dropped.
    var count: Int { observers.withLock { $0.items.count } }

    func add(_ observer: RelayObserver) {
        let isLong = observers.withLock { $0.append(observer) }
        // NB: as a store's list does, drop the gone observers once the list has doubled since the last time.
        if isLong { remove { $0.isGone } }
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
        let (observers, generation) = self.observers.withLock { ($0.items, lock.generation) }
        let check = CancellationCheck(lock: lock, generation: generation)
        var sawGone = false
        for observer in observers where !observer.notify(change, checking: check) { sawGone = true }
        if sawGone { remove { $0.isGone } }
    }

    /// Stops an owner-bound observer for good, and removes it from the list.
    func cancel(_ observer: OwnedRelayObserver<some AnyObject & Sendable>) {
        lock.withLock {
            observer.isCancelled = true
            lock.advanceGeneration()
        }
        remove { $0 === observer }
    }

    /// Removes the observers `isRemoved` picks; call with no lock held.
    ///
    /// NB: `isRemoved` runs outside the lock (it may load a weak owner, and so
    /// be the one to release it), and so do the releases of the removed observers.
    func remove(where isRemoved: (RelayObserver) -> Bool) {
        let removed = Set(observers.withLock { $0.items }.filter(isRemoved).map(ObjectIdentifier.init))
        let old = observers.withLock { $0.remove(removed) }
        withExtendedLifetime(old) {}
    }

    /// The list, and when to look for gone observers next.
    private struct ObserverList {
        var items: [RelayObserver] = []
        var compactionThreshold = 8

        /// Appends an observer; returns whether the list is long enough to look for gone ones.
        mutating func append(_ observer: RelayObserver) -> Bool {
            items.append(observer)
            return items.count >= compactionThreshold
        }

        /// Removes the observers of `removed`; returns the old list, for the caller to release unlocked.
        mutating func remove(_ removed: Set<ObjectIdentifier>) -> [RelayObserver] {
            var kept = items.filter { !removed.contains(ObjectIdentifier($0)) }
            compactionThreshold = max(8, kept.count * 2)
            swap(&kept, &items)
            return kept
        }
    }
}

/// An observer of every store of a dispatcher.
class RelayObserver {
    /// Calls the observer with `change`; `false` when the observer is gone.
    func notify(_ change: AnyStoreChange, checking check: CancellationCheck) -> Bool { false }

    /// Whether the observer is gone for good; called with no lock held.
    var isGone: Bool { true }
}

/// A whole-dispatcher observer that lives as long as its owner, or until its handle cancels it.
final class OwnedRelayObserver<Owner: AnyObject & Sendable>: RelayObserver, @unchecked Sendable {
    // NB: `isCancelled` is guarded by the relay's lock; `owner` is written once, in `init`.
    private weak var owner: Owner?
    private let body: @Sendable (Owner, AnyStoreChange) -> Void
    /// The relay's lock.
    private let lock: Lock
    var isCancelled = false

    init(owner: Owner, lock: Lock, body: @escaping @Sendable (Owner, AnyStoreChange) -> Void) {
        self.owner = owner
        self.lock = lock
        self.body = body
    }

    override func notify(_ change: AnyStoreChange, checking check: CancellationCheck) -> Bool {
        guard check.allowsCall({ isCancelled }), let owner else { return false }
        body(owner, change)
        return true
    }

    override var isGone: Bool { lock.withLock { isCancelled } || owner == nil }
}

/// A whole-dispatcher observer that lives until its token is cancelled or released.
final class TokenRelayObserver: RelayObserver, Cancellable, @unchecked Sendable {  // `isCancelled`: relay's lock
    private let relay: ChangeRelay
    private let body: @Sendable (AnyStoreChange) -> Void
    private var isCancelled = false

    init(relay: ChangeRelay, body: @escaping @Sendable (AnyStoreChange) -> Void) {
        self.relay = relay
        self.body = body
    }

    override func notify(_ change: AnyStoreChange, checking check: CancellationCheck) -> Bool {
        guard check.allowsCall({ isCancelled }) else { return false }
        body(change)
        return true
    }

    override var isGone: Bool { relay.lock.withLock { isCancelled } }

    func cancel() {
        relay.lock.withLock {
            isCancelled = true
            relay.lock.advanceGeneration()
        }
        relay.remove { $0 === self }
    }
}
