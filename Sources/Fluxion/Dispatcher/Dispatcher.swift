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
/// queued and runs, in order, before the outermost ``dispatch(_:)->()`` returns;
/// dispatches from other threads wait their turn. No handler or observer ever
/// runs while a Fluxion lock is held.
///
/// ``shared`` serves apps; create independent instances for tests or modules.
public final class Dispatcher: @unchecked Sendable {  // `var`s guarded by `lock`; `context` owned by the turn holder
    /// The dispatcher apps share.
    public static let shared = Dispatcher()

    private let lock = Lock(waitable: true)
    @exclusivity(unchecked) private var registrations: [ObjectIdentifier: Registration] = [:]
    /// The name index: every route for an action name, in registration order.
    @exclusivity(unchecked) private var routesByName: [String: [Route]] = [:]
    /// The catch-all routes, in registration order: what a name without entries reaches.
    @exclusivity(unchecked) private var fallbackRoutes: [Route] = []
    /// The last name looked up, its routes, and whether their stores exist: an action
    /// dispatched again, as most are, costs a string comparison instead of a hash.
    /// Emptied whenever a route or a store comes or goes.
    @exclusivity(unchecked) private var lastLookUp: (name: String, routes: [Route], storesExist: Bool)?
    /// The thread whose dispatch is running, if any: the holder of the dispatch turn.
    @exclusivity(unchecked) private var turnHolder: ThreadID?
    /// Actions dispatched by the turn holder while it runs one; FIFO.
    @exclusivity(unchecked) private var queue = ActionQueue()
    /// The threads running a store factory now; usually none.
    @exclusivity(unchecked) private var creators: [ThreadID] = []
    /// Whether the turn holder is waiting, inside a handler, for another thread to create a store.
    ///
    /// A factory running meanwhile may dispatch: its actions then queue behind
    /// the turn holder's, as if dispatched from its handler, instead of waiting
    /// for a turn that cannot end before the factory does.
    @exclusivity(unchecked) private var turnHolderAwaitsCreation = false
    /// How many dispatches gave up their turn to wait for a store another thread creates.
    @exclusivity(unchecked) private var yieldedTurns = 0
    /// How many types were ever registered: the next registration's place in registration order.
    @exclusivity(unchecked) private var registrationCount = 0
    /// The observers of every store; see `Dispatcher+Observation.swift`.
    let relay = ChangeRelay()
    /// Whether every store forwards its changes to `relay`: set for good by the first whole-dispatcher observer.
    @exclusivity(unchecked) private var forwardsChanges = false
    /// The action running now; only the turn holder touches it.
    private let context = DispatchContext()
    /// How many suspensions are held; actions dispatched meanwhile wait in `suspendedActions`.
    @exclusivity(unchecked) private var suspensionCount = 0
    /// Actions dispatched while suspended, from any thread, in order.
    @exclusivity(unchecked) private var suspendedActions = ActionQueue()
    /// Callers of `waitUntilDrained()` waiting for no action to be running or suspended.
    @exclusivity(unchecked) private var drainWaiters: [CheckedContinuation<Void, Never>] = []
    /// The middleware chain, outermost first.
    @exclusivity(unchecked) private var middleware: [MiddlewareEntry] = []
    @exclusivity(unchecked) private var nextMiddlewareID = 0
    /// Whether a middleware of the chain observes changes, so that they are gathered for it.
    @exclusivity(unchecked) private var middlewareObservesChanges = false
    @exclusivity(unchecked) private var deadLetters = 0
    @exclusivity(unchecked) private var deadLetterHandler: (@Sendable (AnyAction) -> Void)?
    @exclusivity(unchecked) private var queuedErrorHandler: (@Sendable (AnyAction, any Error) -> Void)?
    /// The archivers of the persistent stores, and the persistence error hook.
    let persistenceCenter = PersistenceCenter()

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
    /// - Throws: ``FluxionError/storeAlreadyRegistered(_:)`` if the type is
    ///   registered already; ``FluxionError/storeTypeUpcast(_:as:)`` if `type`
    ///   is a subclass's metatype passed as its superclass's (the dispatcher
    ///   creates and routes to the static type `S`, so it would register the
    ///   wrong store).
    public func register<State, S: Store<State>>(_ type: S.Type, factory: @escaping @Sendable () -> S) throws {
        try register(type, factory: factory, prepare: nil)
    }

    /// Registers a store type; `prepare` runs on the new store before it is published.
    func register<State, S: Store<State>>(
        _ type: S.Type,
        factory: @escaping @Sendable () -> S,
        prepare: (@Sendable (S) -> Void)?
    ) throws {
        guard type == S.self else { throw FluxionError.storeTypeUpcast(typeName(type), as: typeName(S.self)) }
        let registration = Registration(S.self, factory: factory, prepare: prepare)
        try lock.withLock {
            guard registrations[registration.id] == nil else {
                throw FluxionError.storeAlreadyRegistered(registration.name)
            }
            registration.order = registrationCount
            registrationCount += 1
            registrations[registration.id] = registration
            lastLookUp = nil
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
        let id = ObjectIdentifier(S.self)
        let removed = lock.withLock { () -> Registration? in
            guard let registration = registrations.removeValue(forKey: id) else { return nil }
            lastLookUp = nil
            let names = registration.fallback == nil ? Array(registration.handlers.keys) : Array(routesByName.keys)
            for name in names {
                routesByName[name]?.removeAll { $0.registration.id == id }
                if routesByName[name]?.isEmpty == true { routesByName[name] = nil }
            }
            fallbackRoutes.removeAll { $0.registration.id == id }
            return registration
        }
        if removed != nil { persistenceCenter.releaseKey(of: id) }
        // NB: the store is released here, outside the lock: its deinit is user code.
        return removed != nil
    }

    /// Whether a store type is registered.
    public func isRegistered<State, S: Store<State>>(_ type: S.Type) -> Bool {
        lock.withLock { registrations[ObjectIdentifier(S.self)] != nil }
    }

    /// The store of a registered type, created now if this is its first need.
    ///
    /// - Throws: ``FluxionError/storeNotRegistered(_:)`` for a type that is not
    ///   registered; ``FluxionError/recursiveStoreCreation(_:)`` when called
    ///   on the thread that is creating this store (from its initializer or
    ///   factory); ``FluxionError/storeAlreadyOwned(_:)`` when the factory
    ///   returned a store that a dispatcher owns already.
    public func store<State, S: Store<State>>(_ type: S.Type) throws -> S {
        let registration = try lock.withLock {
            guard let registration = registrations[ObjectIdentifier(S.self)] else {
                throw FluxionError.storeNotRegistered(typeName(S.self))
            }
            return registration
        }
        // NB: the registration's factory returns `S`.
        return unsafeDowncast(try instance(of: registration), to: S.self)
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
    ///   between two actions and may give it up while another thread creates
    ///   the store.
    private func instance(of registration: Registration, yieldingTurn: Bool = false) throws -> any StoreRuntime {
        let thread = ThreadID.current
        lock.lock()
        /// The turn holder's queued actions, kept aside while it has given up the turn.
        var yieldedQueue: ActionQueue?
        defer {
            if let yieldedQueue {
                while turnHolder != nil { lock.wait() }
                turnHolder = thread
                yieldedTurns -= 1
                queue = yieldedQueue  // NB: whoever held the turn meanwhile emptied `queue`
            }
            if turnHolder == thread { turnHolderAwaitsCreation = false }
            lock.unlock()
        }
        while true {
            if let store = registration.instance { return store }
            guard let creator = registration.creator else {
                registration.creator = thread
                creators.append(thread)
                lock.unlock()
                let store = makeAttachedStore(of: registration)
                lock.lock()
                // NB: a store made while forwarding started must forward before anyone can change it.
                var forwarded = false
                while let store, forwardsChanges, !forwarded {
                    lock.unlock()
                    store.forwardChanges(to: relay)
                    forwarded = true
                    lock.lock()
                }
                registration.creator = nil
                if let index = creators.lastIndex(of: thread) { creators.remove(at: index) }
                lock.broadcast()
                guard let store else { throw FluxionError.storeAlreadyOwned(registration.name) }
                registration.instance = store
                lastLookUp = nil
                return store
            }
            if creator == thread {
                throw FluxionError.recursiveStoreCreation(registration.name)
            }
            if turnHolder == thread {
                if yieldingTurn {
                    if yieldedQueue == nil {
                        yieldedQueue = queue
                        queue = ActionQueue()
                        yieldedTurns += 1
                        turnHolder = nil
                        lock.broadcast()
                    }
                } else if !turnHolderAwaitsCreation {
                    turnHolderAwaitsCreation = true
                    lock.broadcast()
                }
            }
            lock.wait()
        }
    }

    /// Makes every store, now and later, forward its changes to the whole-dispatcher observers.
    func startForwardingChanges() {
        let stores = lock.withLock {
            forwardsChanges = true
            return registrations.values.compactMap(\.instance)
        }
        for store in stores { store.forwardChanges(to: relay) }
    }

    /// The stores created so far, in registration order.
    func createdStores() -> [any StoreRuntime] {
        lock.withLock { registrations.values.sorted { $0.order < $1.order }.compactMap(\.instance) }
    }

    /// Runs the factory of `registration`, with no lock held (it is user code),
    /// attaches the new store and prepares it (persistence restores its archive
    /// there); `nil` when a dispatcher owns that store already.
    private func makeAttachedStore(of registration: Registration) -> (any StoreRuntime)? {
        let store = registration.make()
        guard store.attach(to: self) else { return nil }
        registration.prepare?(store)
        return store
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
        try send(name.rawValue, payload: payload, error: error)
    }

    /// Dispatches a typed action without a payload.
    ///
    /// - Throws: See ``dispatch(_:payload:error:)``.
    public func dispatch(_ name: ActionName<Void>, error: (any Error)? = nil) throws {
        try send(name.rawValue, payload: (), error: error)
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
        try send(action)
    }

    /// Runs a typed action now if no dispatch is running on this thread, or queues it if one is.
    ///
    /// The action travels as its parts, so that no generic type is built on the way.
    func send<Payload: Sendable>(
        _ name: String,
        payload: Payload,
        error: (any Error)?,
        exclusively: Bool = false
    ) throws {
        try send(name, exclusively: exclusively) {
            QueuedAction(name: name, payload: payload, error: error)
        } erased: {
            AnyAction(name: name, payload: payload, error: error)
        } perform: { routes, storesExist in
            try perform(name, payload: payload, error: error, through: routes, storesExist: storesExist)
        }
    }

    /// Runs an untyped action now if no dispatch is running on this thread, or queues it if one is.
    func send(_ action: AnyAction, exclusively: Bool = false) throws {
        try send(action.name, exclusively: exclusively) {
            QueuedAction(action)
        } erased: {
            action
        } perform: { routes, storesExist in
            try perform(action, through: routes, storesExist: storesExist)
        }
    }

    /// Takes the dispatch turn, runs the action, then the actions queued meanwhile.
    ///
    /// An action dispatched by the turn holder is queued behind its action; one
    /// dispatched while the dispatcher is suspended waits for the release.
    ///
    /// - Parameters:
    ///   - exclusively: Whether the action runs even while the dispatcher is suspended.
    ///   - queued: Makes the queued form of the action.
    ///   - erased: The action with its payload type erased, for the middleware.
    ///   - perform: Runs the action through the routes of its name, and whether
    ///     their stores exist; called with the turn held.
    private func send(
        _ name: String,
        exclusively: Bool,
        queued: () -> QueuedAction,
        erased: () -> AnyAction,
        perform: ([Route], Bool) throws -> Void
    ) throws {
        let thread = ThreadID.current
        lock.lock()
        while true {
            if turnHolder == thread || (turnHolder != nil && mayQueueBehindTurnHolder(thread)) {
                queue.append(queued())
                lock.unlock()
                return
            }
            if suspensionCount > 0, !exclusively {
                suspendedActions.append(queued())
                lock.unlock()
                return
            }
            if turnHolder == nil { break }
            lock.wait()
        }
        turnHolder = thread
        let (routes, storesExist) = lookUpRoutes(for: name)
        let middleware = self.middleware
        let collectsChanges = middlewareObservesChanges
        lock.unlock()

        var failure: (any Error)?
        do {
            if middleware.isEmpty {
                try perform(routes, storesExist)
            } else {
                // NB: its stores are made first, while the turn may still be given up meanwhile.
                if !storesExist { try createStores(of: routes) }
                _ = try run(erased(), through: middleware[...], collectingChanges: collectsChanges)
            }
        } catch {
            failure = error
        }
        runQueuedActionsAndEndTurn()
        if let failure { throw failure }
    }

    /// Runs an action the turn holder took from a queue, or a batch's: through
    /// the middleware, if any, then through the stores.
    func process(_ name: String, erased: () -> AnyAction, perform: ([Route], Bool) throws -> Void) throws {
        let (routes, storesExist, middleware, collectsChanges) = lock.withLock {
            let (routes, storesExist) = lookUpRoutes(for: name)
            return (routes, storesExist, self.middleware, middlewareObservesChanges)
        }
        if middleware.isEmpty {
            try perform(routes, storesExist)
        } else {
            if !storesExist { try createStores(of: routes) }
            _ = try run(erased(), through: middleware[...], collectingChanges: collectsChanges)
        }
    }

    /// Passes `action` to the first middleware of `chain`, or, past the last, to the stores.
    ///
    /// - Returns: The changes the action produced.
    func run(
        _ action: AnyAction,
        through chain: ArraySlice<MiddlewareEntry>,
        collectingChanges: Bool
    ) throws -> [AnyStoreChange] {
        guard let first = chain.first else {
            return try perform(action, collectingChanges: collectingChanges)
        }
        let next = MiddlewareNext(dispatcher: self, chain: chain.dropFirst(), collectsChanges: collectingChanges)
        let wasInMiddleware = context.isInMiddleware
        context.isInMiddleware = true
        defer { context.isInMiddleware = wasInMiddleware }
        return try first.middleware.dispatch(action, next: next)
    }

    /// Runs an action through its stores; with `collectingChanges`, returns the changes it produced.
    private func perform(_ action: AnyAction, collectingChanges: Bool) throws -> [AnyStoreChange] {
        let (routes, storesExist) = routes(for: action.name)
        guard collectingChanges else {
            try perform(action, through: routes, storesExist: storesExist)
            return []
        }
        // NB: created before collecting starts: creating a store may give up the turn meanwhile.
        if !storesExist { try createStores(of: routes) }
        relay.startCollecting()
        do {
            try perform(action, through: routes, storesExist: true)
        } catch {
            _ = relay.stopCollecting()
            throw error
        }
        return relay.stopCollecting()
    }

    /// Runs `body` holding the dispatch turn, so that no change is delivered meanwhile,
    /// then the actions it queued.
    func withTurn(_ body: () -> Void) {
        let thread = ThreadID.current
        lock.lock()
        while turnHolder != nil, turnHolder != thread, !mayQueueBehindTurnHolder(thread) { lock.wait() }
        if turnHolder != nil {
            // NB: this thread holds the turn, or the holder is blocked until this thread's factory returns.
            lock.unlock()
            body()
            return
        }
        turnHolder = thread
        lock.unlock()
        body()
        runQueuedActionsAndEndTurn()
    }

    /// Whether `thread` runs a store factory while the turn holder waits for a store; call under `lock`.
    ///
    /// Its dispatches then queue behind the turn holder's, like a handler's.
    private func mayQueueBehindTurnHolder(_ thread: ThreadID) -> Bool {
        turnHolderAwaitsCreation && creators.contains(thread)
    }

    /// Runs the queued actions in order, then gives up the dispatch turn.
    private func runQueuedActionsAndEndTurn() {
        while let next = nextQueuedActionOrEndTurn() {
            do {
                try next.perform(on: self)
            } catch {
                lock.withLock { queuedErrorHandler }?(next.action, error)
            }
        }
    }

    /// The routes of an action name, and whether their stores exist.
    private func routes(for name: String) -> (routes: [Route], storesExist: Bool) {
        lock.withLock { lookUpRoutes(for: name) }
    }

    /// The routes of an action name, and whether their stores exist; call under `lock`.
    private func lookUpRoutes(for name: String) -> (routes: [Route], storesExist: Bool) {
        if let last = lastLookUp, last.name == name { return (last.routes, last.storesExist) }
        let routes = routesByName[name] ?? fallbackRoutes
        let storesExist = routes.allSatisfy { $0.registration.instance != nil }
        lastLookUp = (name, routes, storesExist)
        return (routes, storesExist)
    }

    /// Takes the next queued action, or gives up the dispatch turn when there is none.
    private func nextQueuedActionOrEndTurn() -> QueuedAction? {
        lock.lock()
        if !queue.isEmpty, let next = queue.popFirst() {
            lock.unlock()
            return next
        }
        turnHolder = nil
        lock.broadcast()
        let drained = takeDrainWaitersIfDrained()
        lock.unlock()
        for waiter in drained { waiter.resume() }
        return nil
    }

    // MARK: Suspending

    /// Adds a suspension; see ``suspend()``.
    func beginSuspension() {
        lock.withLock { suspensionCount += 1 }
    }

    /// Removes a suspension; the last one runs the actions dispatched meanwhile, in order.
    ///
    /// When an action is running, the waiting actions join its queue and run
    /// before its dispatch returns; otherwise this thread takes the turn and runs them.
    func endSuspension() {
        let thread = ThreadID.current
        lock.lock()
        suspensionCount -= 1
        guard suspensionCount == 0, !suspendedActions.isEmpty else {
            let drained = takeDrainWaitersIfDrained()
            lock.unlock()
            for waiter in drained { waiter.resume() }
            return
        }
        let runsThemHere = turnHolder == nil
        if runsThemHere { turnHolder = thread }
        while let action = suspendedActions.popFirst() { queue.append(action) }
        lock.unlock()
        if runsThemHere { runQueuedActionsAndEndTurn() }
    }

    /// Whether a suspension is held.
    public var isSuspended: Bool {
        lock.withLock { suspensionCount > 0 }
    }

    /// Returns once no action is running and none waits for a suspension to end.
    ///
    /// ```swift
    /// lock.release()
    /// await dispatcher.waitUntilDrained()  // every action dispatched while suspended has run
    /// ```
    ///
    /// While the dispatcher is suspended with actions waiting, this waits for
    /// the last suspension's release and for those actions to run.
    public func waitUntilDrained() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isDrained = lock.withLock {
                guard turnHolder != nil || yieldedTurns > 0 || !suspendedActions.isEmpty else { return true }
                drainWaiters.append(continuation)
                return false
            }
            if isDrained { continuation.resume() }
        }
    }

    /// The waiters to resume when nothing runs or waits; call under `lock`.
    private func takeDrainWaitersIfDrained() -> [CheckedContinuation<Void, Never>] {
        guard !drainWaiters.isEmpty, turnHolder == nil, yieldedTurns == 0, suspendedActions.isEmpty else {
            return []
        }
        defer { drainWaiters = [] }
        return drainWaiters
    }

    // MARK: Batches

    /// Runs `body` as one batch holding the turn; see ``batch(_:)``.
    func runBatch<Value>(_ body: (DispatchBatch) throws -> Value) throws -> Value {
        let thread = ThreadID.current
        lock.lock()
        while let holder = turnHolder, holder != thread, !mayQueueBehindTurnHolder(thread) { lock.wait() }
        if turnHolder != nil {
            lock.unlock()
            // NB: this thread runs an action, or a batch: a batch folds into the running batch.
            // NB: `context` is the turn holder's: check that this thread holds the turn before reading it.
            // A batch folds into a running batch between its actions, never inside a handler.
            guard turnHolder(is: thread), let running = context.batch, !context.isRunningHandler else {
                throw FluxionError.batchInsideAction
            }
            do {
                return try body(DispatchBatch(dispatcher: self))
            } catch {
                running.fail(error)
                throw error
            }
        }
        turnHolder = thread
        lock.unlock()

        let batch = BatchProgress()
        context.batch = batch
        let outcome = Result { try body(DispatchBatch(dispatcher: self)) }
        context.batch = nil
        var failure = batch.failure
        if failure == nil, case .failure(let error) = outcome { failure = error }
        let action = failure == nil ? AnyAction(name: AnyAction.batchName, payload: batch.actions) : nil
        for store in batch.stores { store.finishBatch(committing: action) }
        runQueuedActionsAndEndTurn()
        if let failure { throw failure }
        return try outcome.get()
    }

    /// Runs one action of the running batch now; `DispatchBatch` calls it.
    func performInBatch(_ name: String, erased: () -> AnyAction, perform: ([Route], Bool) throws -> Void) throws {
        guard turnHolder(is: ThreadID.current), let batch = context.batch else {
            throw FluxionError.batchEnded(name)
        }
        // NB: one action at a time: a handler of the batch's current action cannot start another.
        guard !context.isRunningHandler else { throw FluxionError.batchInsideAction }
        batch.actions.append(erased())
        do {
            try process(name, erased: erased, perform: perform)
        } catch {
            batch.fail(error)
            throw error
        }
    }

    private func turnHolder(is thread: ThreadID) -> Bool {
        lock.withLock { turnHolder == thread }
    }

    // MARK: Middleware

    /// Adds a middleware at the end of the chain; it sees every action dispatched from now on.
    ///
    /// Safe while other threads dispatch: an action already running keeps the
    /// chain it started with. See <doc:MiddlewareAndAsyncWork>.
    ///
    /// - Returns: An identifier for ``removeMiddleware(_:)``.
    @discardableResult
    public func addMiddleware(_ middleware: any Middleware) -> MiddlewareID {
        let observesChanges = middleware.observesChanges  // NB: user code, read before locking
        // NB: the stores forward their changes before the middleware can run, so it never misses one.
        if observesChanges { startForwardingChanges() }
        let id = lock.withLock {
            let id = MiddlewareID(rawValue: nextMiddlewareID)
            nextMiddlewareID += 1
            self.middleware.append(MiddlewareEntry(id: id, middleware: middleware, observesChanges: observesChanges))
            middlewareObservesChanges = middlewareObservesChanges || observesChanges
            return id
        }
        return id
    }

    /// Removes a middleware from the chain.
    ///
    /// - Returns: Whether it was in the chain.
    @discardableResult
    public func removeMiddleware(_ id: MiddlewareID) -> Bool {
        var removed: [MiddlewareEntry] = []
        lock.withLock {
            removed = middleware.filter { $0.id == id }
            middleware.removeAll { $0.id == id }
            middlewareObservesChanges = middleware.contains(where: \.observesChanges)
        }
        return !removed.isEmpty  // NB: the removed middleware is released here, outside the lock
    }

    /// Runs a typed action through `routes`, then tells the observers; the turn holder calls it.
    func perform<Payload: Sendable>(
        _ name: String,
        payload: Payload,
        error: (any Error)?,
        through routes: [Route],
        storesExist: Bool
    ) throws {
        let payloadType = ObjectIdentifier(Payload.self)
        try perform(
            name,
            through: routes,
            storesExist: storesExist,
            mismatch: { handler in
                handler.payloadType == nil || handler.payloadType == payloadType ? nil : typeName(Payload.self)
            },
            run: { handler, store in handler.run(on: store, name: name, payload: payload, error: error) },
            erased: { AnyAction(name: name, payload: payload, error: error) }
        )
    }

    /// Runs an untyped action through `routes`, then tells the observers; the turn holder calls it.
    func perform(_ action: AnyAction, through routes: [Route], storesExist: Bool) throws {
        try perform(
            action.name,
            through: routes,
            storesExist: storesExist,
            mismatch: { handler in
                handler.accepts(action.payload) ? nil : typeName(type(of: action.payload))
            },
            run: { handler, store in handler.untyped(store, action) },
            erased: { action }
        )
    }

    /// Runs one action through its stores, then tells their observers.
    ///
    /// - Parameters:
    ///   - storesExist: Whether every store of `routes` exists; those that do not are created first.
    ///   - mismatch: The name of the payload's type when `handler` cannot take it; `nil` when it can.
    ///   - run: Runs a handler on its store.
    ///   - erased: The action with its payload type erased, for `waitFor`, observers and hooks.
    private func perform(
        _ name: String,
        through routes: [Route],
        storesExist: Bool,
        mismatch: (Handler) -> String?,
        run: (Handler, AnyObject) -> HandlerOutcome,
        erased: () -> AnyAction
    ) throws {
        guard !routes.isEmpty else {
            lock.withLock {
                deadLetters += 1
                return deadLetterHandler
            }?(erased())
            return
        }
        for route in routes {
            if let actual = mismatch(route.handler) {
                throw FluxionError.payloadTypeMismatch(
                    action: name,
                    expected: route.handler.expectedPayload,
                    actual: actual
                )
            }
        }
        if !storesExist { try createStores(of: routes) }
        defer { context.end() }
        // NB: with one route, `waitFor` can never run another handler, so the
        // context needs the action only when there are more.
        context.run(routes.count > 1 ? erased() : nil, through: routes) { route in
            // NB: `createStores` made every store; an instance, once set, never changes.
            guard let store = route.registration.instance else {
                return HandlerOutcome(
                    error: FluxionError.storeNotRegistered(route.registration.name), isObserved: false)
            }
            return run(route.handler, store)
        }
        // NB: a batch tells observers once, when it ends.
        if context.isObserved, context.batch == nil {
            context.deliverChanges(for: erased())
        }
        if let error = context.firstError { throw error }
    }

    /// Creates the stores of `routes` that do not exist yet; the turn holder calls it between actions.
    private func createStores(of routes: [Route]) throws {
        for route in routes {
            // NB: a batch holds the turn from its first action to its last, and the
            // middleware from before an action to after it: only a bare action may yield.
            _ = try instance(of: route.registration, yieldingTurn: context.batch == nil && !context.isInMiddleware)
        }
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
        _ = try runFirst(type)
    }

    /// Runs the handler of the store of type `S` for the current action, unless it ran.
    ///
    /// - Returns: The store, or `nil` when it does not handle the action.
    func runFirst<State, S: Store<State>>(_ type: S.Type) throws -> AnyObject? {
        let thread = ThreadID.current
        let holdsTurn = lock.withLock { turnHolder == thread }
        guard holdsTurn, context.isRunningHandler else {
            throw FluxionError.waitForOutsideDispatch(typeName(S.self))
        }
        let id = ObjectIdentifier(S.self)
        let waited = try context.waitFor(id) { route in
            // NB: a pending route means several routes, so the context holds the action;
            // `createStores` made every store before the first handler ran.
            guard let store = route.registration.instance, let action = context.action else {
                return HandlerOutcome(
                    error: FluxionError.storeNotRegistered(route.registration.name), isObserved: false)
            }
            // Opens the payload's existential, so the handler runs typed when it can.
            func run<Payload: Sendable>(_ payload: Payload) -> HandlerOutcome {
                route.handler.run(on: store, name: action.name, payload: payload, error: action.error)
            }
            let payload = action.payload
            return run(payload)
        }
        if let store = waited { return store }
        guard isRegistered(type) else { throw FluxionError.storeNotRegistered(typeName(S.self)) }
        return nil
    }

    /// Whether an action is running through this dispatcher now, on any thread.
    ///
    /// While a dispatch waits for another thread to create a store it needs,
    /// before its first handler runs, it gives up its turn: this may then be
    /// `false`, or `true` for another thread's dispatch.
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
        set {
            var handler = newValue
            lock.withLock { swap(&handler, &deadLetterHandler) }
            // NB: the replaced closure is released here, outside the lock: it may hold objects with a deinit.
        }
    }

    /// How many actions no store handled (middleware that drops an action handles it).
    public var deadLetterCount: Int {
        lock.withLock { deadLetters }
    }

    /// Called with each queued action whose handler threw, and the error; `nil` by default.
    ///
    /// A dispatch from inside a handler or an observer is queued and returns
    /// before the action runs, so its errors cannot reach that caller; they
    /// reach the stores' observers (``StoreChange/error``) and this hook.
    public var onQueuedError: (@Sendable (AnyAction, any Error) -> Void)? {
        get { lock.withLock { queuedErrorHandler } }
        set {
            var handler = newValue
            lock.withLock { swap(&handler, &queuedErrorHandler) }
            // NB: the replaced closure is released here, outside the lock.
        }
    }
}
