// Registering store types, and creating each store on first need.
extension Dispatcher {
    /// Registers a store type that the dispatcher creates with `init()` on first need.
    ///
    /// - Throws: The errors of ``register(_:factory:)``.
    public func register<State, S: Store<State> & DefaultInitializable>(_ type: S.Type) throws {
        try register(type) { S() }
    }

    /// Not available: the dispatcher cannot create a store type that is not ``DefaultInitializable``.
    ///
    /// Conform the store type to ``DefaultInitializable`` (it, or its state,
    /// needs `init()`), or register it with a factory, ``register(_:factory:)``.
    @available(
        *, unavailable,
        message:
            "register(_:) creates the store with init(): conform the store type to DefaultInitializable, or pass a factory, as in register(MyStore.self) { MyStore(api: api) }"
    )
    public func register<State, S: Store<State>>(_ type: S.Type) throws {}

    /// Registers a store type that the dispatcher creates with `factory` on first need.
    ///
    /// Use a factory for stores that need dependencies:
    ///
    /// ```swift
    /// try dispatcher.register(TodoStore.self) { TodoStore(api: api) }
    /// ```
    ///
    /// The factory runs once, on the first thread that needs the store (the
    /// first ``store(_:)`` or the first dispatch of an action the store
    /// handles); other threads that need it meanwhile wait for it.
    ///
    /// - Throws: ``FluxionError/storeAlreadyRegistered(_:)`` if the type is
    ///   registered already;
    ///   ``FluxionError/conflictingPayloadTypes(action:store:payload:otherStore:otherPayload:)``
    ///   if the type declares an action name that a registered type declares
    ///   with another payload type; ``FluxionError/storeTypeUpcast(_:as:)`` if
    ///   `type` is a subclass's metatype passed as its superclass's (the
    ///   dispatcher creates and routes to the static type `S`, so it would
    ///   register the wrong store).
    public func register<State, S: Store<State>>(_ type: S.Type, factory: @escaping @Sendable () -> S) throws {
        try register(type, factory: factory, prepare: nil)
    }

    /// Registers a store type; `prepare` runs on the new store before it is published.
    func register<State, S: Store<State>>(
        _ type: S.Type,
        factory: @escaping @Sendable () -> S,
        prepare: (@Sendable (S) -> Void)?
    ) throws {
        try register(type, sources: [], make: { _ in factory() }, prepare: prepare)
    }

    /// Registers a store type made by `make`, which may read the stores `sources` names (registered already).
    ///
    /// - Parameters:
    ///   - table: The type's handler table, `S.handlers` when `nil`; a computed store's is empty.
    ///   - derivation: For a computed store, what derives its state in the derive stage.
    @usableFromInline
    func register<State, S: Store<State>>(
        _ type: S.Type,
        sources: [any AnyObject.Type],
        make: @escaping @Sendable (Dispatcher) throws -> S,
        prepare: (@Sendable (S) -> Void)?,
        table: HandlerTable<State>? = nil,
        derivation: Handler? = nil
    ) throws {
        guard type == S.self else {
            let (name, staticName) = typeNames(type, S.self)
            throw FluxionError.storeTypeUpcast(name, as: staticName)
        }
        let table = table ?? S.handlers  // NB: user code: read before locking
        /// A registration the index refused, released here after unlocking: it holds user closures.
        var refused: Registration?
        defer { withExtendedLifetime(refused) {} }
        try state.withLock { state in
            let registration = Registration(
                S.self, table: table, order: state.index.registrationCount, sources: sources, make: make,
                prepare: prepare, computation: derivation)
            do {
                try state.index.add(registration)
            } catch {
                refused = registration
                throw error
            }
        }
    }

    /// Registers a store type created with `init()` whose state starts as `initialState`.
    ///
    /// For tests and previews: seed a store without writing a factory.
    ///
    /// ```swift
    /// try dispatcher.register(CounterStore.self, initialState: Counter(count: 41))
    /// ```
    ///
    /// - Throws: The errors of ``register(_:factory:)``.
    public func register<State, S: Store<State> & DefaultInitializable>(_ type: S.Type, initialState: State) throws {
        try register(type, initialState: initialState) { S() }
    }

    /// Not available: the dispatcher cannot create a store type that is not ``DefaultInitializable``.
    ///
    /// Conform the store type to ``DefaultInitializable``, or register it with
    /// a factory, ``register(_:initialState:factory:)``.
    @available(
        *, unavailable,
        message:
            "register(_:initialState:) creates the store with init(): conform the store type to DefaultInitializable, or pass a factory, as in register(MyStore.self, initialState: state) { MyStore(api: api) }"
    )
    public func register<State, S: Store<State>>(_ type: S.Type, initialState: State) throws {}

    /// Registers a store type created with `factory` whose state starts as `initialState`.
    ///
    /// The store's own initial state is replaced before anyone sees the store.
    ///
    /// - Throws: The errors of ``register(_:factory:)``.
    public func register<State, S: Store<State>>(
        _ type: S.Type,
        initialState: State,
        factory: @escaping @Sendable () -> S
    ) throws {
        try register(type, factory: factory) { store in store.replaceStateBeforePublication(with: initialState) }
    }

    /// Removes a store type and its store, and the computed stores computed from it; later actions no
    /// longer reach them.
    ///
    /// A computed store cannot outlive a source: unregistering a source unregisters every computed store
    /// computed from it, directly or through another computed store (register them again, after the
    /// source, to compute them anew). Actions the source handled still reach the other stores that
    /// handle them.
    ///
    /// - Returns: Whether the type was registered.
    @discardableResult
    public func unregister<State, S: Store<State>>(_ type: S.Type) -> Bool {
        let removed = state.withLock { $0.index.remove(ObjectIdentifier(S.self)) }
        for (registration, _) in removed { persistenceCenter.releaseKey(of: registration.id) }
        // NB: the stores are released here, outside the lock: their deinits are user code.
        return !removed.isEmpty
    }

    /// Whether a store type is registered.
    public func isRegistered<State, S: Store<State>>(_ type: S.Type) -> Bool {
        state.withLock { $0.index.registrations[ObjectIdentifier(S.self)] != nil }
    }

    /// The store of a registered type, created now if this is its first need.
    ///
    /// - Throws: ``FluxionError/storeNotRegistered(_:waitingStore:action:)`` for a type that is not
    ///   registered; ``FluxionError/recursiveStoreCreation(_:)`` when called
    ///   on the thread that is creating this store (from its initializer or
    ///   factory); ``FluxionError/storeAlreadyOwned(_:)`` when the factory
    ///   returned a store that a dispatcher owns already.
    public func store<State, S: Store<State>>(_ type: S.Type) throws -> S {
        guard let registration = state.withLock({ $0.index.registrations[ObjectIdentifier(S.self)] }) else {
            throw FluxionError.storeNotRegistered(typeName(S.self))
        }
        // NB: the registration's factory returns `S`.
        return unsafeDowncast(try instance(of: registration), to: S.self)
    }

    /// `list`, or, if some of its stores do not exist yet, the list with them created now; the turn holder calls it.
    func ready(_ list: RouteList) throws -> RouteList {
        if list.isReady { return list }
        // NB: a transaction, and the middleware, keep the turn from before an action to after it:
        // only a bare action, before it starts, may give the turn up while another thread creates a store.
        let mayYield = !transaction.isOpen && !middlewareRuns.isRunning
        var instances: [ObjectIdentifier: any StoreRuntime] = [:]
        for route in list.routes {
            instances[route.registration.id] = try instance(of: route.registration, yieldingTurn: mayYield)
        }
        return RouteList(list.handlerRoutes, derived: list.derivedRoutes, instances: instances)
    }

    /// The store of `registration`, created now if this is its first need.
    ///
    /// A thread that needs a store another thread is creating waits for it.
    /// If it holds the dispatch turn, the creating thread's factory may be
    /// waiting to dispatch; so that neither waits forever, the turn holder
    /// either gives the turn up meanwhile (between two actions), or lets the
    /// factory's dispatches queue behind its own (inside a handler).
    ///
    /// - Parameter yieldingTurn: Whether the caller holds the dispatch turn
    ///   between two actions and may give it up while another thread creates the store.
    func instance(of registration: Registration, yieldingTurn: Bool = false) throws -> any StoreRuntime {
        enum Need {
            case exists(any StoreRuntime)
            case create
            case recursive
        }
        let thread = ThreadID.current
        /// The turn holder's queue and step, kept aside while it has given up the turn.
        var kept: ActionQueue?
        var keptStep: StepLedger.Step?
        /// Whether this thread holds the turn and waited: it gave the turn up, or let factories queue behind it.
        var waitedHoldingTurn = false
        defer {
            // NB: a holder that gave its turn up takes it back, with its queue, before it goes on.
            if waitedHoldingTurn { endWait() }
        }
        func endWait() {
            _ = state.withLockWaiting(until: { state -> Bool? in
                if var queue = kept {
                    guard state.turn.resume(thread, with: &queue) else { return nil }
                    kept = nil
                    keptStep.map(steps.restore)
                }
                if state.turn.holder == thread { state.turn.holderAwaitsCreation = false }
                return true
            })
        }
        let need = state.withLockWaiting(until: { state -> Need? in
            if let store = state.index.instances[registration.id] { return .exists(store) }
            guard let creator = state.index.creators[registration.id] else {
                state.index.beginCreation(of: registration, by: thread)
                return .create
            }
            if creator == thread { return .recursive }
            if state.turn.holder == thread, !waitedHoldingTurn {
                waitedHoldingTurn = true
                if yieldingTurn {
                    kept = state.turn.yield()
                    keptStep = steps.setAside()
                } else {
                    state.turn.holderAwaitsCreation = true
                }
                self.state.broadcast()
            }
            return nil
        })
        switch need {
        case .exists(let store):
            return store
        case .recursive:
            throw FluxionError.recursiveStoreCreation(registration.name)
        case .create:
            let store: (any StoreRuntime)?
            do {
                store = try makeAttachedStore(of: registration)
            } catch {
                publish(nil, of: registration)
                throw error
            }
            publish(store, of: registration)
            guard let store else { throw FluxionError.storeAlreadyOwned(registration.name) }
            return store
        }
    }

    /// Runs the factory of `registration`, with no lock held (it is user code),
    /// attaches the new store and prepares it (persistence restores its archive
    /// there); `nil` when a dispatcher owns that store already.
    ///
    /// - Throws: What a derived store's factory throws when one of its sources cannot be had.
    private func makeAttachedStore(of registration: Registration) throws -> (any StoreRuntime)? {
        let store = try registration.make(self)
        guard store.attach(to: self) else { return nil }
        registration.prepare?(store)
        return store
    }

    /// Ends a creation: makes the new store forward its changes if it must, then publishes it.
    private func publish(_ store: (any StoreRuntime)?, of registration: Registration) {
        var forwards = false
        while true {
            // NB: a store made while forwarding started must forward before anyone can change it.
            let mustRelay = state.withLock { state -> (any StoreRuntime)? in
                if let store, state.forwardsChanges, !forwards { return store }
                state.index.endCreation(of: registration, making: store)
                self.state.broadcast()
                return nil
            }
            guard let mustRelay else { return }
            mustRelay.relayChanges(to: relay)
            forwards = true
        }
    }

    /// Makes every store, now and later, forward its changes to the whole-dispatcher observers.
    func startRelayingChanges() {
        let stores = state.withLock { state in
            state.forwardsChanges = true
            return state.index.createdStores
        }
        for store in stores { store.relayChanges(to: relay) }
    }

    /// The stores created so far, in registration order.
    func createdStores() -> [any StoreRuntime] {
        state.withLock { $0.index.createdStores }
    }
}
