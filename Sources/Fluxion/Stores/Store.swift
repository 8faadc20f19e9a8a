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
/// at any time and returns a consistent snapshot.
///
/// `Store` guards its state with a lock and is `@unchecked Sendable`; Swift
/// asks each subclass to restate that conformance, as above. Keep the stored
/// properties you add immutable (`let`, such as injected dependencies), or
/// guard them yourself: handlers run on whichever thread dispatches.
open class Store<State: Sendable>: @unchecked Sendable {  // mutable fields guarded by `lock`, see below
    let lock = Lock()
    private var currentState: State
    private var observers: [Observer<State>] = []
    private var compactionThreshold = 8
    private weak var owningDispatcher: Dispatcher?

    // NB: written and read only by the thread that holds the owning dispatcher's
    // dispatch turn, between running a handler and delivering the change.
    private var pendingOldState: State?
    private var pendingError: (any Error)?

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
        lock.withLock { currentState }
    }

    /// The dispatcher that created this store, while it exists.
    public final var dispatcher: Dispatcher? {
        lock.withLock { owningDispatcher }
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
        try dispatcher.waitFor(type)
        return try dispatcher.store(type)
    }

    /// Calls `handler` with each change of this store while `owner` is alive.
    ///
    /// The owner is passed to the handler, so the handler need not capture it
    /// (no retain cycle). When the owner deallocates the observer stops firing
    /// and is freed with the next change; nothing needs unregistering.
    ///
    /// ```swift
    /// store.observe(owner: self) { owner, change in
    ///     owner.render(change.newState)
    /// }
    /// ```
    ///
    /// The handler runs on the dispatching thread after every store has
    /// handled the action; an observer added during a delivery first hears
    /// the next change.
    public final func observe<Owner: AnyObject & Sendable>(
        owner: Owner,
        _ handler: @escaping @Sendable (Owner, StoreChange<State>) -> Void
    ) {
        add(Observer(owner: owner) { owner, change in handler(unsafeDowncast(owner, to: Owner.self), change) })
    }

    /// Calls `handler` with each change of this store until the token is cancelled or released.
    ///
    /// ```swift
    /// let token = store.observe { change in print(change.newState) }
    /// …
    /// token.cancel()
    /// ```
    ///
    /// - Returns: A token; keep it as long as you want the changes.
    public final func observe(_ handler: @escaping @Sendable (StoreChange<State>) -> Void) -> ObservationToken {
        let anchor = ObservationToken.Anchor()
        let observer = Observer<State>(owner: anchor) { _, change in handler(change) }
        add(observer)
        return ObservationToken(keeping: anchor) { [weak self] in self?.remove(observer) }
    }

    private func add(_ observer: Observer<State>) {
        lock.withLock {
            observers.append(observer)
            if observers.count >= compactionThreshold {
                observers.removeAll { $0.isStale }
                compactionThreshold = max(8, observers.count * 2)
            }
        }
    }

    private func remove(_ observer: Observer<State>) {
        lock.withLock { observers.removeAll { $0 === observer } }
    }
}

extension Store: StoreRuntime {
    func attach(to dispatcher: Dispatcher) {
        lock.withLock { owningDispatcher = dispatcher }
    }

    func run(_ handler: any ErasedHandler, for action: AnyAction) -> (any Error)? {
        // NB: the index only pairs a store with handlers of its own table.
        let handler = unsafeDowncast(handler, to: Handler<State>.self)
        let oldState = lock.withLock { currentState }
        var draft = oldState
        do {
            try handler.run(self, &draft, action)
        } catch {
            pendingOldState = oldState
            pendingError = error
            return error
        }
        lock.withLock { currentState = draft }
        pendingOldState = oldState
        pendingError = nil
        return nil
    }

    func deliverPendingChange(for action: AnyAction) {
        guard let oldState = pendingOldState else { return }
        let error = pendingError
        pendingOldState = nil
        pendingError = nil
        let (newState, observers) = lock.withLock { (currentState, self.observers) }
        guard !observers.isEmpty else { return }
        let change = StoreChange(oldState: oldState, newState: newState, action: action, error: error)
        var sawStale = false
        for observer in observers where !observer.notify(change) {
            sawStale = true
        }
        if sawStale {
            lock.withLock { self.observers.removeAll { $0.isStale } }
        }
    }
}
