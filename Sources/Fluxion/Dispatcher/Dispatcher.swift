/// Routes actions to the stores registered with it, one action at a time.
///
/// Register store types once, at startup; the dispatcher creates each store on
/// first need and keeps it for its own life:
///
/// ```swift
/// let dispatcher = Dispatcher()
/// try dispatcher.register(CounterStore.self)
/// try dispatcher.dispatch(.increment, payload: 1)
/// let counter = try dispatcher.store(CounterStore.self)
/// ```
///
/// Dispatch is serialized: one action at a time flows through every store
/// that handles its name, in registration order (``waitFor(_:)`` reorders
/// within an action). A dispatch from inside a handler or an observer is
/// queued and runs, in order, before the outermost ``dispatch(_:)`` returns;
/// dispatches from other threads wait their turn. No handler or observer ever
/// runs while a Fluxion lock is held.
///
/// ``shared`` serves apps; create independent instances for tests or modules.
public final class Dispatcher: @unchecked Sendable {  // `var`s guarded by `lock`, but `context`
    /// The dispatcher apps share.
    public static let shared = Dispatcher()

    private let lock = Lock()
    private var registrations: [ObjectIdentifier: Registration] = [:]
    /// The name index: every route for an action name, in registration order.
    private var routesByName: [String: [Route]] = [:]
    /// The catch-all routes, in registration order: what a name without entries reaches.
    private var fallbackRoutes: [Route] = []
    /// The thread whose dispatch is running, if any: the holder of the dispatch turn.
    private var turnHolder: ThreadID?
    /// Actions dispatched by the turn holder while it runs one; FIFO.
    private var queue = ActionQueue()
    private var deadLetterHandler: (@Sendable (AnyAction) -> Void)?
    private var queuedErrorHandler: (@Sendable (AnyAction, any Error) -> Void)?

    // NB: only the turn holder reads or writes this.
    private var context: DispatchContext?

    /// Creates an independent dispatcher with no stores.
    public init() {}

    // MARK: Registering stores

    /// Registers a store type that the dispatcher creates with `init()` on first need.
    ///
    /// - Throws: ``FluxionError/storeAlreadyRegistered(_:)`` if the type is registered already.
    public func register<State, S: Store<State> & DefaultInitializable>(_ type: S.Type) throws {
        try register(type) { S() }
    }

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
    /// - Throws: ``FluxionError/storeAlreadyRegistered(_:)`` if the type is registered already.
    public func register<State, S: Store<State>>(_ type: S.Type, factory: @escaping @Sendable () -> S) throws {
        let registration = Registration(type, factory: factory)
        try lock.withLock {
            guard registrations[registration.id] == nil else {
                throw FluxionError.storeAlreadyRegistered(registration.name)
            }
            registrations[registration.id] = registration
            // NB: the new registration comes last in registration order, so
            // appending keeps every route list sorted.
            for name in registration.handlers.keys where routesByName[name] == nil {
                routesByName[name] = fallbackRoutes
            }
            let names = registration.fallback == nil ? Array(registration.handlers.keys) : Array(routesByName.keys)
            for name in names {
                if let route = registration.route(for: name) { routesByName[name]?.append(route) }
            }
            if let fallback = registration.fallback {
                fallbackRoutes.append(Route(registration: registration, handler: fallback))
            }
        }
    }

    /// Removes a store type and its store; later actions no longer reach it.
    ///
    /// - Returns: Whether the type was registered.
    @discardableResult
    public func unregister<State, S: Store<State>>(_ type: S.Type) -> Bool {
        let id = ObjectIdentifier(type)
        return lock.withLock {
            guard let registration = registrations.removeValue(forKey: id) else { return false }
            let names = registration.fallback == nil ? Array(registration.handlers.keys) : Array(routesByName.keys)
            for name in names {
                routesByName[name]?.removeAll { $0.registration.id == id }
                if routesByName[name]?.isEmpty == true { routesByName[name] = nil }
            }
            fallbackRoutes.removeAll { $0.registration.id == id }
            return true
        }
    }

    /// Whether a store type is registered.
    public func isRegistered<State, S: Store<State>>(_ type: S.Type) -> Bool {
        lock.withLock { registrations[ObjectIdentifier(type)] != nil }
    }

    /// The store of a registered type, created now if this is its first need.
    ///
    /// - Throws: ``FluxionError/storeNotRegistered(_:)`` for a type that is not
    ///   registered; ``FluxionError/recursiveStoreCreation(_:)`` when called
    ///   on the thread that is creating this store (from its initializer or
    ///   factory).
    public func store<State, S: Store<State>>(_ type: S.Type) throws -> S {
        let registration = try lock.withLock {
            guard let registration = registrations[ObjectIdentifier(type)] else {
                throw FluxionError.storeNotRegistered(typeName(type))
            }
            return registration
        }
        // NB: the registration's factory returns `S`.
        return unsafeDowncast(try instance(of: registration), to: S.self)
    }

    /// The store of `registration`, created now if this is its first need.
    ///
    /// - Parameter yieldingTurn: Whether the caller holds the dispatch turn
    ///   between two actions and may give it up while another thread creates
    ///   the store: that thread's factory may itself be waiting to dispatch.
    private func instance(of registration: Registration, yieldingTurn: Bool = false) throws -> any StoreRuntime {
        let thread = ThreadID.current
        lock.lock()
        var yielded = false
        defer {
            if yielded {
                while turnHolder != nil { lock.wait() }
                turnHolder = thread
            }
            lock.unlock()
        }
        while true {
            if let store = registration.instance { return store }
            guard let creator = registration.creator else {
                registration.creator = thread
                lock.unlock()
                // NB: the factory is user code: it runs with no lock held.
                let store = registration.make()
                store.attach(to: self)
                lock.lock()
                registration.instance = store
                registration.creator = nil
                lock.broadcast()
                return store
            }
            if creator == thread {
                throw FluxionError.recursiveStoreCreation(registration.name)
            }
            if yieldingTurn, !yielded, turnHolder == thread {
                turnHolder = nil
                yielded = true
                lock.broadcast()
            }
            lock.wait()
        }
    }

    // MARK: Dispatching

    /// Dispatches a typed action to every store that handles its name.
    ///
    /// ```swift
    /// try dispatcher.dispatch(.addTodo, payload: "Buy milk")
    /// ```
    ///
    /// When called from a handler or an observer, the action is queued and
    /// runs after the current one, before the outermost dispatch returns; the
    /// call then returns at once without throwing, and the queued action's
    /// errors go to ``onQueuedError`` and to the stores' observers.
    ///
    /// - Parameters:
    ///   - name: The action name; it fixes the payload type.
    ///   - payload: The value to carry.
    ///   - error: An error to carry, for actions that report a failure.
    /// - Throws: The first error a handler threw (the stores whose handlers
    ///   threw keep their previous state; the others keep their changes), or
    ///   ``FluxionError/payloadTypeMismatch(action:expected:actual:)`` if
    ///   another store declared this name with another payload type, in which
    ///   case no store is touched.
    public func dispatch<Payload>(_ name: ActionName<Payload>, payload: Payload, error: (any Error)? = nil) throws {
        try dispatch(AnyAction(name: name.rawValue, payload: payload, error: error))
    }

    /// Dispatches a typed action without a payload.
    ///
    /// - Throws: See ``dispatch(_:payload:error:)``.
    public func dispatch(_ name: ActionName<Void>, error: (any Error)? = nil) throws {
        try dispatch(AnyAction(name: name.rawValue, payload: (), error: error))
    }

    /// Dispatches an action by raw name, with a payload of any type.
    ///
    /// ```swift
    /// try dispatcher.dispatch(AnyAction(name: "addTodo", payload: "Buy milk"))
    /// ```
    ///
    /// - Throws: ``FluxionError/payloadTypeMismatch(action:expected:actual:)``
    ///   when a handler of this name expects another payload type (no store is
    ///   touched), or the first error a handler threw.
    public func dispatch(_ action: AnyAction) throws {
        let thread = ThreadID.current
        lock.lock()
        if turnHolder == thread {
            queue.append(action)
            lock.unlock()
            return
        }
        while turnHolder != nil { lock.wait() }
        turnHolder = thread
        lock.unlock()
        defer {
            lock.withLock {
                turnHolder = nil
                lock.broadcast()
            }
        }
        var failure: (any Error)?
        do {
            try perform(action)
        } catch {
            failure = error
        }
        while let next = lock.withLock({ queue.popFirst() }) {
            do {
                try perform(next)
            } catch {
                lock.withLock { queuedErrorHandler }?(next, error)
            }
        }
        if let failure { throw failure }
    }

    /// Runs one action through its stores, then tells their observers.
    private func perform(_ action: AnyAction) throws {
        let (routes, deadLetterHandler) = lock.withLock {
            (routesByName[action.name] ?? fallbackRoutes, self.deadLetterHandler)
        }
        guard !routes.isEmpty else {
            deadLetterHandler?(action)
            return
        }
        for route in routes where !route.handler.accepts(action.payload) {
            throw FluxionError.payloadTypeMismatch(
                action: action.name,
                expected: route.handler.expectedPayload,
                actual: typeName(type(of: action.payload))
            )
        }
        let stores = try routes.map { try instance(of: $0.registration, yieldingTurn: true) }
        let context = DispatchContext(action: action, routes: routes, stores: stores)
        self.context = context
        context.runAll()
        self.context = nil
        for store in context.handledStores {
            store.deliverPendingChange(for: action)
        }
        if let error = context.firstError { throw error }
    }

    /// Runs the handler of another store for the current action first.
    ///
    /// Call it from a handler that needs another store's updated state. If the
    /// other store has handled the action already, or does not handle it,
    /// `waitFor` returns at once.
    ///
    /// - Throws: ``FluxionError/waitForCycle(_:)`` when the stores wait for
    ///   each other (the path names them); ``FluxionError/waitForOutsideDispatch(_:)``
    ///   when not called from a handler of this dispatcher's current action;
    ///   ``FluxionError/storeNotRegistered(_:)`` for an unregistered type; or
    ///   the error the other store's handler threw.
    public func waitFor<State, S: Store<State>>(_ type: S.Type) throws {
        let thread = ThreadID.current
        let holdsTurn = lock.withLock { turnHolder == thread }
        guard holdsTurn, let context, context.isRunningHandler else {
            throw FluxionError.waitForOutsideDispatch(typeName(type))
        }
        let id = ObjectIdentifier(type)
        if try !context.waitFor(id), !(lock.withLock { registrations[id] != nil }) {
            throw FluxionError.storeNotRegistered(typeName(type))
        }
    }

    /// Whether an action is running through this dispatcher now, on any thread.
    public var isDispatching: Bool {
        lock.withLock { turnHolder != nil }
    }

    // MARK: Diagnostics

    /// Called with each action that no store handles; `nil` by default.
    ///
    /// Dispatching a name no store handles is not an error: nothing changes,
    /// and this hook, if set, hears of it.
    public var onDeadLetter: (@Sendable (AnyAction) -> Void)? {
        get { lock.withLock { deadLetterHandler } }
        set { lock.withLock { deadLetterHandler = newValue } }
    }

    /// Called with each queued action whose handler threw, and the error; `nil` by default.
    ///
    /// A dispatch from inside a handler or an observer is queued and returns
    /// before the action runs, so its errors cannot reach that caller; they
    /// reach the stores' observers (``StoreChange/error``) and this hook.
    public var onQueuedError: (@Sendable (AnyAction, any Error) -> Void)? {
        get { lock.withLock { queuedErrorHandler } }
        set { lock.withLock { queuedErrorHandler = newValue } }
    }
}
