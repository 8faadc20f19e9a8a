/// Everything one action name reaches, in registration order, with the stores once they exist: the
/// handlers' routes, and the derivations of the computed stores that follow their stores.
///
/// Immutable, and shared: the index makes a new list when a route or a store
/// comes or goes, so a dispatch that looked one up can use it unlocked.
final class RouteList: Sendable {
    /// The routes, in registration order (the order observers hear the stores in): handlers' routes, and
    /// derivations, which run in the transaction's derive stage, after the handlers.
    let routes: [Route]
    /// The places in ``routes`` of the derivations, in registration order: an order in which each computed
    /// store comes after its sources.
    let derivations: [Int]
    /// Whether every store of ``routes`` exists, so that a dispatch can run at once.
    let isReady: Bool
    /// The payload type the name's handlers declare; `nil` when only catch-all reducers handle it.
    let payloadType: ObjectIdentifier?
    /// The first route whose handler declares a payload type: its handler speaks for all of them.
    let typedRoute: Route?
    /// Whether this is the list of ``AnyAction/mutationName``, whose actions a batch's mutation carries.
    let isMutation: Bool

    /// The list of ``AnyAction/mutationName``: no handler takes it; the dispatcher applies the mutation.
    static let mutation = RouteList([], instances: [:], isMutation: true)

    /// The index of the route of the store type whose identifier is `id`, if the list has one.
    func index(of id: ObjectIdentifier) -> Int? {
        routes.indices.first { routes[$0].storeID == id }
    }

    /// The handlers' routes, without the derivations.
    var handlerRoutes: [Route] { routes.filter { !$0.isDerivation } }
    /// The derivations' routes.
    var derivedRoutes: [Route] { derivations.map { routes[$0] } }

    /// Makes the list of the handlers' `routes` and the `derived` ones, in registration order, each with its
    /// store if it is among `instances`.
    init(
        _ routes: some Collection<Route>, derived: [Route] = [], instances: [ObjectIdentifier: any StoreRuntime],
        isMutation: Bool = false
    ) {
        self.isMutation = isMutation
        let all =
            derived.isEmpty
            ? Array(routes) : (routes + derived).sorted { $0.registration.order < $1.registration.order }
        let routes = all.map { route in
            let store = instances[route.registration.id]
            guard route.store !== store else { return route }
            return Route(registration: route.registration, handler: route.handler, store: store)
        }
        self.routes = routes
        derivations = routes.indices.filter { routes[$0].isDerivation }
        isReady = routes.allSatisfy { $0.store != nil }
        typedRoute = routes.first { $0.handler.payloadType != nil }
        payloadType = typedRoute?.handler.payloadType
    }
}

/// One store's handler for one action name, and the store once it exists, as the name index holds it.
final class Route: @unchecked Sendable {  // `running`, `bound`: only the turn holder; the rest immutable
    let registration: Registration
    /// `registration.id` and `registration.operations`, read without loading the registration.
    let storeID: ObjectIdentifier
    let operations: StoreOperations
    /// The handler as the store type declares it; a computed store's derivation.
    let handler: Handler
    /// Whether the route derives a computed store, in the derive stage, rather than running a handler.
    let isDerivation: Bool
    /// The store, once created.
    let store: (any StoreRuntime)?
    /// The same store, to lend without a reference count while the route is held.
    /// NB: `Unmanaged` is not `Sendable`, but this is only a copy of `store`'s reference, which is.
    nonisolated(unsafe) let unretainedStore: Unmanaged<AnyObject>?
    /// The handler that runs on `store`, lent: `handler`, or, for a method handler, `handler` bound to the
    /// store once it ran (`nil` until then); see `runningHandler`.
    private var running: Unmanaged<Handler>?
    /// The bound handler `running` lends, kept.
    private var bound: Handler?

    init(registration: Registration, handler: Handler, store: (any StoreRuntime)? = nil) {
        self.registration = registration
        storeID = registration.id
        operations = registration.operations
        self.handler = handler
        isDerivation = registration.isComputed
        self.store = store
        unretainedStore = store.map { Unmanaged.passUnretained($0) }
        running = handler.binding == nil ? Unmanaged.passUnretained(handler) : nil
    }

    /// The handler to run on `store`, lent without a reference count: the route keeps it. A method handler
    /// is bound to the store the first time it runs, by the thread holding the dispatch turn (who alone runs
    /// handlers): the binding runs the store type's code, which may use the dispatcher, so never under its
    /// lock, where the route is made.
    ///
    /// NB: a bound method keeps its store, as this route does: no cycle, as the store keeps neither.
    @inline(__always)
    var runningHandler: Unmanaged<Handler> {
        if let running { return running }
        return bindToStore()
    }

    @inline(never)
    private func bindToStore() -> Unmanaged<Handler> {
        guard let store else { return Unmanaged.passUnretained(handler) }
        let bound = handler.bound(to: store)
        self.bound = bound
        running = Unmanaged.passUnretained(bound)
        return Unmanaged.passUnretained(bound)
    }
}
