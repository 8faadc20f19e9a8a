import Dispatch
import Observation

/// A class that holds one value-type state and the handlers that change it.
///
/// Subclass `Store` for each store type, declare its handlers once in
/// ``handlers``, and register the type with a ``Dispatcher``; the dispatcher
/// creates the store on first need and keeps it for its own life.
///
/// ```swift
/// struct Counter: DefaultInitializable, Sendable { var count = 0 }
///
/// final class CounterStore: Store<Counter>, DefaultInitializable, @unchecked Sendable {
///     override class var handlers: Handlers {
///         HandlerTable().on(.increment) { state, action in state.count += action.payload }
///     }
/// }
/// ```
///
/// The store inherits `init()`, starting from `Counter()`, because its state
/// is ``DefaultInitializable``; conforming the store too lets the dispatcher
/// create it (`try dispatcher.register(CounterStore.self)`). A store whose
/// state has no `init()` declares `init() { super.init(initialState: …) }`,
/// and one that needs dependencies registers with a factory.
///
/// Only handlers change the state, and each action's changes commit together,
/// in every store it reaches, or not at all (see ``Dispatcher``). Reading
/// ``state`` is safe from any thread at any time and returns a consistent
/// snapshot, never a state in the middle of an action. When `State` is
/// `Equatable`, an action that leaves it equal is no change: observers are
/// not called. A store is `Observable`: code that reads ``state`` inside
/// `withObservationTracking` (a SwiftUI view's `body`, for one) is told when
/// an action changes it; code that reads one value of the state through the
/// store, `store.unreadCount` (``subscript(dynamicMember:)``), is told only
/// when that value changes.
///
/// `Store` guards its state with a lock and is `@unchecked Sendable`; Swift
/// asks each subclass to restate that conformance, as above. Keep the stored
/// properties you add immutable (`let`, such as injected dependencies), or
/// guard them yourself: handlers run on whichever thread dispatches.
@dynamicMemberLookup
open class Store<State: Sendable>: Observable, @unchecked Sendable {  // `lock`, or the dispatch turn, as marked
    @usableFromInline let lock = Lock(waitable: true)
    @usableFromInline let registrar = ObservationRegistrar()
    /// `\.state`, made once: a key path into a generic class costs an allocation each time it is formed.
    /// NB: the store holds it here alone; Observation holds it too while a tracker that read ``state``
    /// is installed (see `isStateTracked`). A `var` only so that its uniqueness can be checked.
    // unchecked: W1 +42, W6 +375 instructions/dispatch checked (callgrind)
    @usableFromInline @exclusivity(unchecked) final var stateKeyPath: KeyPath<Store<State>, State> = \.state
    /// `==` when `State` is `Equatable`: a handler run that leaves the state equal is then no change.
    @usableFromInline let isEqual: (@Sendable (State, State) -> Bool)?
    /// Whether the store has observers, which need the state from before a change, so that no
    /// handler may change it in place. Set under `lock` (see `noteWhetherOldStateIsNeeded`); read
    /// without it, as a hint that spares a store with observers a lock per dispatch. Changing in
    /// place checks again under the lock, with what Observation is tracking.
    @usableFromInline let needsOldState = AtomicFlag()
    /// Whether the store is computed: set once, before the store is published; `derivation` is then set.
    @usableFromInline let isDerived = AtomicFlag()
    /// A computed store's state, derived from its sources as the calling thread sees them; set once, before
    /// the store is published. See `Store+Derivation.swift`.
    @usableFromInline final var derivation: Derivation<State>?

    // Guarded by `lock`. NB: these are fields of the class, not a `Guarded` value as elsewhere:
    // a generic struct holding them costs a generic-metadata look-up on every access from code
    // not specialised for `State` (measured: about 1,500 more instructions per `state` read from
    // another module). The class's own metadata gives their offsets for free.
    // Exclusivity is left unchecked on the fields whose run-time checks would cost a dispatch (figures on each);
    // the optimiser checks the others at compile time, or they change only as observers and dispatchers come and go.

    /// The committed state. NB: written under `lock`, and only by the thread holding the
    /// owning dispatcher's dispatch turn, which may therefore read it without the lock.
    // unchecked: W1 +132, W6 +507, W12o +427 instructions/dispatch checked (callgrind)
    @usableFromInline @exclusivity(unchecked) final var currentState: State
    /// The state of the running transaction, not committed yet. NB: only the thread that
    /// `stagingThread` names reads or writes it, so it needs no lock.
    // unchecked: W6 +1,180 instructions/dispatch checked (callgrind)
    @usableFromInline @exclusivity(unchecked) final var staged: State?
    /// The thread running the transaction that staged `staged`, the turn holder: read by any thread
    /// without the lock, to tell whether it may read `staged`.
    @usableFromInline let stagingThread = AtomicThreadID()
    /// Whether ``state`` was ever read: until then no tracker can hold `stateKeyPath`. Atomic: the turn
    /// holder sets it without the lock (see `turnHolderState`), other readers under it.
    @usableFromInline let isStateRead = AtomicFlag()
    /// The observers in the order they were added; `nil` marks a cancelled one's slot.
    // unchecked: W1 +84, W5 +414 instructions/dispatch checked (callgrind)
    @usableFromInline @exclusivity(unchecked) final var observers: ContiguousArray<AnyObserver?> = []
    /// How many of `observers` need the state from before a change; the others let it change in place.
    // unchecked: W5 +250, W12n +84 instructions/dispatch checked (callgrind)
    @usableFromInline @exclusivity(unchecked) final var oldStateObserverCount = 0
    final var vacantSlots = 0
    final var compactionThreshold = 8
    /// The dispatcher that created the store; set once, when it attaches the store.
    final weak var owningDispatcher: Dispatcher?
    /// That dispatcher's turn, and the dispatcher lent, for its turn holder; published with `owningDispatcher`.
    /// NB: read by any thread without the lock, so atomic, and lent: a reference count would cost two atomic
    /// operations a read.
    @usableFromInline let turnLink = PublishedTurnLink()
    final var isAttached = false
    /// Whether the store passes its changes on to its dispatcher's whole-dispatcher observers.
    final var isRelaying = false
    /// How many changes were committed, each with its observers.
    // unchecked: W1 +81, W13 +339 instructions/dispatch checked (callgrind)
    @usableFromInline @exclusivity(unchecked) final var commitSerial: UInt64 = 0
    /// The key-path observer groups, by key path. See `KeyPathObserverGroup`.
    final var keyPathGroups: [AnyKeyPath: AnyObserver] = [:]
    /// The thread changing the state in place, if one is: readers on other threads wait for it.
    /// Set under the lock; cleared without it, unless a reader flagged that it waits.
    @usableFromInline let inPlaceMutator = AtomicThreadID()
    /// The values of the state read through ``subscript(dynamicMember:)``, which Observation may track.
    // unchecked: W1 +85, W12c +168 instructions/dispatch checked (callgrind)
    @usableFromInline @exclusivity(unchecked) final var trackedValues = TrackedValues<State>()

    // Owned by the dispatch turn:

    /// Whether handler runs stage their changes for a transaction instead of committing them.
    // unchecked: W1 +82, W6 +858 instructions/dispatch checked (callgrind)
    @usableFromInline @exclusivity(unchecked) final var isStaging = false
    /// The committed change, until it is delivered.
    // unchecked: W2 +161, W12o +163 instructions/dispatch checked (callgrind)
    @usableFromInline @exclusivity(unchecked) final var pendingChange: PendingChange<State>?
    /// The change made in place for observers that need no old state, until it is delivered.
    // unchecked: W10 +165, W12n +168 instructions/dispatch checked (callgrind)
    @usableFromInline @exclusivity(unchecked) final var pendingInPlaceChange: InPlaceChange?

    /// Creates a store with its initial state.
    public init(initialState: State) {
        currentState = initialState
        isEqual = equality(of: State.self)
    }

    /// The type of the store's handler table, `HandlerTable<State>`.
    ///
    /// A subclass names it without restating its state type:
    /// `override class var handlers: Handlers { … }`.
    public typealias Handlers = HandlerTable<State>

    /// The store type's handlers; override to declare them.
    ///
    /// The dispatcher reads this once, when the type is registered, to build
    /// its index from action names to handlers. The default table is empty.
    open class var handlers: HandlerTable<State> { HandlerTable() }

    /// The dispatcher that created this store, while it exists.
    public final var dispatcher: Dispatcher? {
        lock.withLock { owningDispatcher }  // NB: the strong reference is released by the caller, unlocked
    }

    /// The dispatcher running this store's handler, read without the lock: set before any of them runs.
    @usableFromInline
    final var attachedDispatcher: Dispatcher? {
        // NB: the dispatcher attaches the store before it publishes it, under its own lock, and never again.
        owningDispatcher
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
        // NB: a thread holding the turn runs inside a method of the dispatcher, which keeps it alive throughout:
        // it is lent without a reference count (a weak load and a release take the slow, side-table path).
        if holdsTurn, let dispatcher = turnLink.link?._withUnsafeGuaranteedRef({ $0.dispatcher }) {
            return try dispatcher._withUnsafeGuaranteedRef { try $0.waitedStore(type) }
        }
        guard let dispatcher = attachedDispatcher else {
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
    /// and is freed soon after; nothing needs unregistering. To stop it
    /// earlier, keep the returned handle and cancel it:
    ///
    /// ```swift
    /// store.observe(owner: self) { owner, change in
    ///     owner.render(change.newState)
    /// }
    ///
    /// let preview = store.observe(owner: self) { owner, change in owner.preview(change.newState) }
    /// preview.cancel()  // this observer stops; the other lives as long as `self`
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
    /// - Returns: A handle that stops the observer early; releasing it does not.
    @inlinable
    @discardableResult
    public final func observe<Owner: AnyObject & Sendable>(
        owner: Owner,
        on queue: DispatchQueue? = nil,
        sendingCurrentState: Bool = false,
        _ handler: @escaping @Sendable (Owner, StoreChange<State>) -> Void
    ) -> ObservationHandle {
        observe(owner: owner, through: queue.map(Delivery.init(on:)), sendingCurrentState: sendingCurrentState, handler)
    }

    /// An owner-bound observer, called directly or, given a `delivery`, through it.
    @usableFromInline
    final func observe<Owner: AnyObject & Sendable>(
        owner: Owner,
        through delivery: Delivery?,
        sendingCurrentState: Bool,
        _ handler: @escaping @Sendable (Owner, StoreChange<State>) -> Void
    ) -> ObservationHandle {
        guard let delivery else {
            let observer = OwnedObserver(owner: owner, body: handler)
            add(observer, sendingCurrentState: sendingCurrentState)
            return observer.handle(in: self)
        }
        let gate = DeliveryGate()
        let observer = OwnedObserver(owner: owner, body: delivery.owned(handler, by: gate))
        add(observer, sendingCurrentState: sendingCurrentState)
        return observer.handle(in: self, closing: gate)
    }

    /// Calls `handler` with each change of this store until the token is cancelled or released.
    ///
    /// ```swift
    /// let token = store.observe { change in print(change.newState) }
    /// …
    /// token.cancel()
    /// ```
    ///
    /// Keep the token: `_ = store.observe { … }` releases it at once, and the
    /// observer never fires (a line on standard error says so). (The `owner:` forms are the other way round: the
    /// observer lives as long as its owner, and their handle may be ignored.)
    /// Cancelling or releasing the token releases the closure. Once
    /// ``ObservationToken/cancel()`` returns, no later change reaches
    /// `handler`; see ``ObservationHandle`` for a call already under way on
    /// another thread.
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
            // NB: the committed state: an observer added inside a handler must not hear a staged one.
            _ = observer.notify(
                StoreChange(currentState: self.committedState),
                checking: CancellationCheck(lock: self.lock, generation: nil))
        }
        if let dispatcher { dispatcher.withTurn(addAndSend) } else { addAndSend() }
    }
}
