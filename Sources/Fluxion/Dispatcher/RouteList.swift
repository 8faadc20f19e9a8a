/// Everything one action name reaches, in registration order, with its stores once they all exist.
///
/// Immutable, and shared: the index makes a new list when a route or a store
/// comes or goes, so a dispatch that looked one up can use it unlocked.
final class RouteList: Sendable {
    let routes: [Route]
    /// The stores of ``routes``, in the same order, once every one exists; `nil` until then.
    let stores: [any StoreRuntime]?
    /// The payload type the name's handlers declare; `nil` when only catch-all reducers handle it.
    let payloadType: ObjectIdentifier?

    init(_ routes: [Route], instances: [ObjectIdentifier: any StoreRuntime]) {
        self.routes = routes
        var stores: [any StoreRuntime] = []
        stores.reserveCapacity(routes.count)
        for route in routes {
            guard let store = instances[route.registration.id] else { break }
            stores.append(store)
        }
        self.stores = stores.count == routes.count ? stores : nil
        payloadType = routes.lazy.compactMap(\.handler.payloadType).first
    }

    /// The first route whose handler declares a payload type, for error messages.
    var typedRoute: Route? {
        routes.first { $0.handler.payloadType != nil }
    }

    /// The index of the route of the store type `id`, if it handles this name.
    func index(of id: ObjectIdentifier) -> Int? {
        routes.firstIndex { $0.registration.id == id }
    }
}
