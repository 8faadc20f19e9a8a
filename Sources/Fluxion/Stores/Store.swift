import Dispatch
import Observation

/// A class that holds one value-type state and the handlers that change it.
///
/// Subclass `Store` for each store type, declare its handlers once in
/// ``handlers``, and register the type with a ``Dispatcher``; the dispatcher
/// creates the store on first need and keeps it for its own life.
///
/// ```swift
/// struct Counter: Sendable { var count = 0 }
///
/// final class CounterStore: Store<Counter>, DefaultInitializable, @unchecked Sendable {
///     init() { super.init(initialState: Counter()) }
///
///     override class var handlers: HandlerTable<Counter> {
///         HandlerTable().on(.increment) { state, action in state.count += action.payload }
///     }
/// }
/// ```
///
/// Only handlers change the state. Reading ``state`` is safe from any thread
/// at any time and returns a consistent snapshot. A store is `Observable`:
/// code that reads ``state`` inside `withObservationTracking` (a SwiftUI
/// view's `body`, for one) is told when a dispatch changes it.
///
/// `Store` guards its state with a lock and is `@unchecked Sendable`; Swift
/// asks each subclass to restate that conformance, as above. Keep the stored
/// properties you add immutable (`let`, such as injected dependencies), or
/// guard them yourself: handlers run on whichever thread dispatches.
open class Store<State: Sendable>: Observable, @unchecked Sendable {  // `lock` or the turn holder, as marked
    @usableFromInline let lock = Lock()
    @usableFromInline let registrar = ObservationRegistrar()
    /// `\.state`, made once: a key path into a generic class costs an allocation each time it is formed.
    @usableFromInline let stateKeyPath: KeyPath<Store<State>, State> = \.state
    /// Whether ``state`` was ever read: only then can observation tracking be watching it.
    @usableFromInline @exclusivity(unchecked) final var isRead = false
    // NB: `currentState` is written only under `lock` and only by the thread holding the
    // owning dispatcher's dispatch turn, which may therefore read it without the lock.
    @usableFromInline @exclusivity(unchecked) final var currentState: State
    /// The observers in the order they were added; `nil` marks a cancelled one's slot.
    @usableFromInline @exclusivity(unchecked) final var observers: ContiguousArray<AnyObserver?> = []
    @exclusivity(unchecked) private final var vacantSlots = 0
    @exclusivity(unchecked) private final var compactionThreshold = 8
    /// The dispatcher that created the store; set once, when it attaches the store.
    @exclusivity(unchecked) private final weak var owningDispatcher: Dispatcher?
    @exclusivity(unchecked) private final var isAttached = false
    /// Whether the store passes its changes on to its dispatcher's whole-dispatcher observers.
    @exclusivity(unchecked) private final var isForwarding = false
    /// The state before the running batch, while one runs; owned by the dispatch turn.
    @exclusivity(unchecked) private final var batchOrigin: State?
    /// How many changes were committed, each with its observers; guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) final var commitSerial: UInt64 = 0
    /// The key-path observer groups, by key path; guarded by `lock`. See `KeyPathObserverGroup`.
    @exclusivity(unchecked) final var keyPathGroups: [AnyKeyPath: AnyObserver] = [:]
    /// The change the last handler made, until it is delivered; owned by the dispatch turn.
    @usableFromInline @exclusivity(unchecked) final var pendingChange: PendingChange<State>?

    /// Creates a store with its initial state.
    public init(initialState: State) {
        currentState = initialState
    }

    /// The store type's handlers; override to declare them.
    ///
    /// The dispatcher reads this once, when the type is registered, to build
    /// its index from action names to handlers. The default table is empty.
    open class var handlers: HandlerTable<State> { HandlerTable() }

    /// A snapshot of the current state; safe to read from any thread.
    ///
    /// During a dispatch a store's own handler sees its state through its
    /// `inout` parameter; other stores see the state as last committed.
    public final var state: State {
        registrar.access(self, keyPath: stateKeyPath)
        return lock.withLock {
            isRead = true
            return currentState
        }
    }

    /// The dispatcher that created this store, while it exists.
    public final var dispatcher: Dispatcher? {
        lock.withLock { owningDispatcher }  // NB: the strong reference is released by the caller, unlocked
    }

    /// Runs another store's handler for the current action first, and returns that store.
    ///
    /// Call it from a handler to read another store's updated state:
    ///
    /// ```swift
    /// func addTodo(_ state: inout Stats, _ action: Action<String>) throws {
    ///     let todos = try waitFor(TodoStore.self)
    ///     state.total = todos.state.items.count
    /// }
    /// ```
    ///
    /// - Throws: The errors of ``Dispatcher/waitFor(_:)``.
    @discardableResult
    public final func waitFor<OtherState, Other: Store<OtherState>>(_ type: Other.Type) throws -> Other {
        guard let dispatcher else {
            throw FluxionError.waitForOutsideDispatch(typeName(Other.self))
        }
        if let store = try dispatcher.runFirst(type) {
            // NB: the route for `Other` holds a store of type `Other`.
            return unsafeDowncast(store, to: Other.self)
        }
        return try dispatcher.store(type)
    }

    /// Calls `handler` with each change of this store while `owner` is alive.
    ///
    /// The owner is passed to the handler, so the handler need not capture it
    /// (no retain cycle). When the owner deallocates the observer stops firing
    /// and is freed soon after; nothing needs unregistering.
    ///
    /// ```swift
    /// store.observe(owner: self) { owner, change in
    ///     owner.render(change.newState)
    /// }
    /// ```
    ///
    /// The handler runs on the dispatching thread after every store has
    /// handled the action, or, given a `queue`, asynchronously on that queue,
    /// one change at a time and in order. An observer added during a delivery
    /// first hears the next change. With `sendingCurrentState`, it is also
    /// called once right away (on the calling thread, or queued) with the
    /// current state.
    ///
    /// - Parameters:
    ///   - owner: The object the observer lives as long as.
    ///   - queue: Where to call `handler`; `nil`, the default, calls it on the
    ///   dispatching thread. A queued call is skipped if the owner is gone by then.
    ///   - sendingCurrentState: Whether to call `handler` once right away with
    ///   the current state (``StoreChange/isCurrentState``); `false` by default.
    ///   - handler: Called with the owner and each change.
    @inlinable
    public final func observe<Owner: AnyObject & Sendable>(
        owner: Owner,
        on queue: DispatchQueue? = nil,
        sendingCurrentState: Bool = false,
        _ handler: @escaping @Sendable (Owner, StoreChange<State>) -> Void
    ) {
        let body = queue.map { Delivery(on: $0).owned(handler) } ?? handler
        add(OwnedObserver(owner: owner, body: body), sendingCurrentState: sendingCurrentState)
    }

    /// Calls `handler` with each change of this store until the token is cancelled or released.
    ///
    /// ```swift
    /// let token = store.observe { change in print(change.newState) }
    /// …
    /// token.cancel()
    /// ```
    ///
    /// Cancelling or releasing the token releases the closure. With a
    /// `queue`, no queued call starts after ``ObservationToken/cancel()`` returns.
    ///
    /// - Parameters:
    ///   - queue: Where to call `handler`; `nil`, the default, calls it on the
    ///   dispatching thread.
    ///   - sendingCurrentState: Whether to call `handler` once right away with
    ///   the current state (``StoreChange/isCurrentState``); `false` by default.
    ///   - handler: Called with each change.
    /// - Returns: A token; keep it as long as you want the changes.
    @inlinable
    public final func observe(
        on queue: DispatchQueue? = nil,
        sendingCurrentState: Bool = false,
        _ handler: @escaping @Sendable (StoreChange<State>) -> Void
    ) -> ObservationToken {
        if let queue { return observe(through: Delivery(on: queue), sendingCurrentState: sendingCurrentState, handler) }
        let observer = TokenObserver(store: self, body: handler)
        add(observer, sendingCurrentState: sendingCurrentState)
        return ObservationToken(observer, lock: lock)
    }

    /// A token observer whose calls go through `delivery`.
    @usableFromInline
    final func observe(
        through delivery: Delivery,
        sendingCurrentState: Bool,
        _ handler: @escaping @Sendable (StoreChange<State>) -> Void
    ) -> ObservationToken {
        let gate = DeliveryGate()
        let observer = TokenObserver(store: self, body: delivery.gated(handler, by: gate))
        add(observer, sendingCurrentState: sendingCurrentState)
        return ObservationToken(gate.guarding(observer), lock: lock)
    }

    /// Adds an observer; with `sendingCurrentState`, also calls it with the current state.
    ///
    /// NB: both happen while holding the owning dispatcher's dispatch turn, so
    /// no change is delivered in between: the observer hears the current state
    /// first, then every later change, in order.
    @usableFromInline
    final func add(_ observer: Observer<State>, sendingCurrentState: Bool) {
        guard sendingCurrentState else { return add(observer) }
        let addAndSend = {
            self.add(observer)
            let state = self.state
            _ = observer.notify(StoreChange(currentState: state), lock: self.lock)
        }
        if let dispatcher { dispatcher.withTurn(addAndSend) } else { addAndSend() }
    }

    @usableFromInline
    final func add(_ observer: Observer<State>) {
        let released = lock.withLock { append(observer) }
        withExtendedLifetime(released) {}  // NB: gone observers are released here, outside the lock
    }

    /// Appends an observer to the list; call under `lock`.
    ///
    /// - Returns: What compaction let go of, if it ran, for the caller to release after unlocking.
    final func append(_ observer: AnyObserver) -> Compaction? {
        observer.slot = observers.count
        observers.append(observer)
        return observers.count >= compactionThreshold ? compactObservers() : nil
    }

    /// Empties a cancelled observer's slot in O(1), compacting the list when half of it is empty; call under `lock`.
    ///
    /// - Returns: What compaction let go of, if it ran, for the caller to release after unlocking.
    final func vacate(_ slot: Int) -> Compaction? {
        observers[slot] = nil
        vacantSlots += 1
        return vacantSlots > observers.count / 2 ? compactObservers() : nil
    }

    /// Drops vacant slots and gone observers; call under `lock`.
    ///
    /// - Returns: The old list and the owners checked alive on the way, for
    ///   the caller to release once it has unlocked: releasing either may run
    ///   user code (an observer's closure's captures, an owner's `deinit`).
    private func compactObservers() -> Compaction {
        var kept = ContiguousArray<AnyObserver?>()
        kept.reserveCapacity(observers.count - vacantSlots)
        var owners: [AnyObject] = []
        for case let observer? in observers where !observer.isGone(keepingOwnerIn: &owners) {
            observer.slot = kept.count
            kept.append(observer)
        }
        vacantSlots = 0
        compactionThreshold = max(8, kept.count * 2)
        swap(&kept, &observers)
        return Compaction(observers: kept, owners: owners)
    }
}

extension Store: StoreRuntime {
    func attach(to dispatcher: Dispatcher) -> Bool {
        lock.withLock {
            guard !isAttached else { return false }
            isAttached = true
            owningDispatcher = dispatcher
            return true
        }
    }

    func forwardChanges(to relay: ChangeRelay) {
        let isFirst = lock.withLock {
            defer { isForwarding = true }
            return !isForwarding
        }
        guard isFirst else { return }
        // NB: the relay, not the store, owns this observer's life; `self` is weak to avoid a cycle.
        add(
            OwnedObserver(owner: relay) { [weak self] relay, change in
                if let self { relay.deliver(AnyStoreChange(change, of: self)) }
            })
    }

    func beginBatch() {
        if batchOrigin == nil { batchOrigin = currentState }  // NB: the turn holder may read it without the lock
    }

    func finishBatch(committing action: AnyAction?) {
        guard let origin = batchOrigin.take() else { return }
        pendingChange = nil
        guard let action else {
            var restored = origin
            let isRead = lock.withLock {
                swap(&currentState, &restored)
                return self.isRead
            }
            withExtendedLifetime(restored) {}  // NB: the abandoned state is released outside the lock
            // NB: a reader on another thread may have seen a state of the batch; have it read again.
            if isRead { registrar.withMutation(of: self, keyPath: stateKeyPath) {} }
            return
        }
        let (observers, isRead, serial) = lock.withLock {
            commitSerial &+= 1
            return (self.observers, self.isRead, commitSerial)
        }
        guard !observers.isEmpty || isRead else { return }
        pendingChange = PendingChange(
            oldState: origin, error: nil, observers: observers, isRead: isRead, serial: serial)
        deliverPendingChange(for: action)
    }

    func currentStateChange() -> AnyStoreChange {
        AnyStoreChange(StoreChange(currentState: lock.withLock { currentState }), of: self)
    }

    /// Runs `mutate` on a copy of the state and commits the copy if it returns.
    ///
    /// Only the holder of the dispatch turn calls it, from a handler's closure,
    /// which is specialised for `State` in the module that declares the store.
    @inlinable
    final func apply(_ mutate: (inout State) throws -> Void) -> HandlerOutcome {
        var state = currentState  // NB: the turn holder may read it without the lock
        do {
            try mutate(&state)
        } catch {
            return reject(error)
        }
        lock.lock()
        swap(&currentState, &state)
        let observers = self.observers
        let isRead = self.isRead
        commitSerial &+= 1
        let serial = commitSerial
        lock.unlock()
        // NB: `state` now holds the old state; it is released here, outside the lock,
        // since releasing it may run the deinit of an object it refers to.
        guard !observers.isEmpty || isRead else {
            withExtendedLifetime(state) {}
            return HandlerOutcome(error: nil, isObserved: false)
        }
        pendingChange = PendingChange(
            oldState: state, error: nil, observers: observers, isRead: isRead, serial: serial)
        return HandlerOutcome(error: nil, isObserved: true)
    }

    /// Records a handler's error as the pending change; the state stays as it was.
    @usableFromInline
    final func reject(_ error: any Error) -> HandlerOutcome {
        // NB: a rejected change leaves the state as it was: observation tracking has nothing to hear.
        let (observers, serial) = lock.withLock {
            commitSerial &+= 1
            return (self.observers, commitSerial)
        }
        guard !observers.isEmpty else { return HandlerOutcome(error: error, isObserved: false) }
        pendingChange = PendingChange(
            oldState: currentState, error: error, observers: observers, isRead: false, serial: serial)
        return HandlerOutcome(error: error, isObserved: true)
    }

    /// Tells the observers about the change the last handler made, if any.
    @inlinable
    final func deliverPendingChange(for action: AnyAction) {
        guard let pending = pendingChange.take() else { return }
        let change = StoreChange(
            oldState: pending.oldState, newState: currentState, action: action, error: pending.error,
            serial: pending.serial)
        var sawGone = false
        for case let observer? in pending.observers {
            // NB: a `Store<State>` lists only `Observer<State>`s.
            if !unsafeDowncast(observer, to: Observer<State>.self).notify(change, lock: lock) { sawGone = true }
        }
        if sawGone { dropGoneObservers() }
        // NB: only code that has read `state` can be tracking it.
        if pending.isRead { registrar.withMutation(of: self, keyPath: stateKeyPath) {} }
    }

    @usableFromInline
    final func dropGoneObservers() {
        let released = lock.withLock { compactObservers() }
        withExtendedLifetime(released) {}  // NB: released outside the lock
    }
}

/// What compacting a store's observer list let go of, to release once the store is unlocked.
struct Compaction {
    let observers: ContiguousArray<AnyObserver?>
    /// The owners loaded to check that they live; the last reference to one may be here.
    let owners: [AnyObject]
}

/// A change a handler made, waiting for the end of the dispatch to be delivered.
@usableFromInline
struct PendingChange<State: Sendable> {
    @usableFromInline let oldState: State
    @usableFromInline let error: (any Error)?
    @usableFromInline let observers: ContiguousArray<AnyObserver?>
    /// Whether to tell observation tracking: the state was read, and the handler did not throw.
    @usableFromInline let isRead: Bool
    /// The store's commit count when the change was committed.
    @usableFromInline let serial: UInt64

    @usableFromInline
    init(
        oldState: State, error: (any Error)?, observers: ContiguousArray<AnyObserver?>, isRead: Bool,
        serial: UInt64
    ) {
        self.oldState = oldState
        self.error = error
        self.observers = observers
        self.isRead = isRead
        self.serial = serial
    }
}
