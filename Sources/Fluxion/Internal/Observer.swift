/// One observer in a store's list. The subclasses hold a weak owner or belong to a token.
@usableFromInline
class Observer<State: Sendable> {
    /// Calls the observer with `change`; returns `false` when the observer is gone.
    @usableFromInline
    func notify(_ change: StoreChange<State>, lock: Lock) -> Bool { false }

    /// Whether the observer is gone for good, so its slot can be reused; read under the store's lock.
    var isGone: Bool { true }

    /// Tells the observer its new slot in the store's list; called under the store's lock.
    func move(to slot: Int) {}
}

/// An observer that lives as long as its owner.
final class OwnedObserver<State: Sendable, Owner: AnyObject & Sendable>: Observer<State> {
    private weak var owner: Owner?
    private let body: @Sendable (Owner, StoreChange<State>) -> Void

    init(owner: Owner, body: @escaping @Sendable (Owner, StoreChange<State>) -> Void) {
        self.owner = owner
        self.body = body
    }

    override func notify(_ change: StoreChange<State>, lock: Lock) -> Bool {
        guard let owner else { return false }
        body(owner, change)
        return true
    }

    override var isGone: Bool { owner == nil }
}

/// An observer that lives until its token is cancelled or released.
final class TokenObserver<State: Sendable>: Observer<State>, Cancellable, @unchecked Sendable {  // vars guarded by the store's lock
    private weak let store: Store<State>?
    @exclusivity(unchecked) private var body: (@Sendable (StoreChange<State>) -> Void)?
    @exclusivity(unchecked) private(set) var slot = 0

    init(store: Store<State>, body: @escaping @Sendable (StoreChange<State>) -> Void) {
        self.store = store
        self.body = body
    }

    override func notify(_ change: StoreChange<State>, lock: Lock) -> Bool {
        // NB: checked under the lock for each change, so a cancel that returned
        // before this point, on any thread, is never followed by a call.
        guard let body = lock.withLock({ body }) else { return false }
        body(change)
        return true
    }

    override var isGone: Bool { body == nil }

    override func move(to slot: Int) {
        self.slot = slot
    }

    /// Whether the observer will not be called again; a gone store calls nobody.
    var isCancelled: Bool {
        guard let store else { return true }
        return store.lock.withLock { body == nil }
    }

    func cancel() {
        store?.remove(self)
    }

    /// Marks the observer cancelled and hands back its closure, for release
    /// outside the lock; call under the store's lock.
    func takeBody() -> (@Sendable (StoreChange<State>) -> Void)? {
        defer { body = nil }
        return body
    }
}

/// An observer an ``ObservationToken`` can cancel.
protocol Cancellable: AnyObject, Sendable {
    var isCancelled: Bool { get }
    func cancel()
}
