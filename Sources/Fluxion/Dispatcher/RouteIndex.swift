/// The name index: which registered store types handle each action name, built at registration.
///
/// It also knows which stores exist and which are being created, and it is
/// where mistakes are refused when they are made: a type registered twice, or
/// two types that declare one action name with different payload types.
struct RouteIndex {
    private(set) var registrations: [ObjectIdentifier: Registration] = [:]
    /// The stores created so far.
    private(set) var instances: [ObjectIdentifier: any StoreRuntime] = [:]
    /// The thread creating each store being created.
    private(set) var creators: [ObjectIdentifier: ThreadID] = [:]
    /// The route list of every name a store declares, and of the built-in mutation action.
    private var lists: RouteTable = {
        var lists = RouteTable()
        lists[AnyAction.mutationName] = .mutation
        return lists
    }()
    /// The catch-all routes, in registration order: what a name without entries reaches.
    private var fallback: [Route] = []
    private var fallbackList = RouteList([Route](), instances: [:])
    /// How many computed store types are registered: until one is, no list has derivations to look for.
    private var computedCount = 0
    /// The last name looked up and its list: an action dispatched again, as most are,
    /// costs a string comparison instead of a hash.
    private var lastLookUp: (name: String, list: RouteList)?
    /// How many types were ever registered: the next registration's place in registration order.
    private(set) var registrationCount = 0

    /// Adds a registration, refusing a type registered already and a payload type that disagrees.
    ///
    /// - Throws: ``FluxionError/storeAlreadyRegistered(_:)`` or
    ///   ``FluxionError/conflictingPayloadTypes(action:store:payload:otherStore:otherPayload:)``.
    mutating func add(_ registration: Registration) throws {
        guard registrations[registration.id] == nil else {
            throw FluxionError.storeAlreadyRegistered(registration.name)
        }
        try checkSources(of: registration)
        for (name, handler) in registration.handlers {
            guard let payloadType = handler.payloadType, let other = lists[name]?.typedRoute,
                other.handler.payloadType != payloadType
            else { continue }
            let (store, otherStore) = typeNames(registration.type, other.registration.type)
            let (payload, otherPayload) = typeNames(handler.payload ?? Any.self, other.handler.payload ?? Any.self)
            throw FluxionError.conflictingPayloadTypes(
                action: name, store: store, payload: payload, otherStore: otherStore, otherPayload: otherPayload)
        }
        registrations[registration.id] = registration
        registrationCount += 1
        // NB: a computed store handles no action: it joins the lists of its sources' actions, as a derivation.
        if registration.isComputed {
            computedCount += 1
            return updateAllLists()
        }
        // NB: the new registration comes last in registration order, so appending keeps every list sorted.
        for name in registration.handlers.keys where lists[name] == nil {
            lists[name] = makeList(fallback)
        }
        if let handler = registration.fallback { fallback.append(Route(registration: registration, handler: handler)) }
        updateLists(of: registration) { routes, name in
            routes + [registration.route(for: name)].compactMap { $0 }
        }
    }

    /// Removes a registration and its store, and those of the computed stores that follow it, directly or
    /// through others; returns them, for the caller to release unlocked.
    mutating func remove(_ id: ObjectIdentifier) -> [(Registration, (any StoreRuntime)?)] {
        guard registrations[id] != nil else { return [] }
        let removed = ([id] + computedDependents(of: [id]).map(\.id)).compactMap { id in
            registrations.removeValue(forKey: id).map { ($0, instances.removeValue(forKey: id)) }
        }
        for (registration, _) in removed {
            fallback.removeAll { $0.registration.id == registration.id }
            if registration.isComputed { computedCount -= 1 }
        }
        let removedIDs = Set(removed.map(\.0.id))
        for name in lists.names where name != AnyAction.mutationName {
            guard let list = lists[name] else { continue }
            let routes = list.handlerRoutes.filter { !removedIDs.contains($0.registration.id) }
            lists[name] = routes.isEmpty ? nil : makeList(routes)
        }
        fallbackList = makeList(fallback)
        lastLookUp = nil
        return removed
    }

    /// The route list of an action name.
    @inline(__always)  // NB: the last name's list, most often asked for again, at the cost of no call
    mutating func list(for name: String) -> RouteList {
        // NB: the byte counts first: a name of another length costs no comparison of bytes.
        if let last = lastLookUp, last.name.utf8.count == name.utf8.count, last.name == name { return last.list }
        return lookUpList(for: name)
    }

    /// The route list of an action name other than the last one asked for.
    private mutating func lookUpList(for name: String) -> RouteList {
        let list = lists[name] ?? fallbackList
        lastLookUp = (name, list)
        return list
    }

    /// Records that `thread` creates the store of `registration`.
    mutating func beginCreation(of registration: Registration, by thread: ThreadID) {
        creators[registration.id] = thread
    }

    /// Records the end of a creation, and the store it made, if any.
    mutating func endCreation(of registration: Registration, making store: (any StoreRuntime)?) {
        creators[registration.id] = nil
        guard let store, registrations[registration.id] === registration else { return }
        instances[registration.id] = store
        if registration.isComputed { return updateAllLists() }
        updateLists(of: registration) { routes, _ in routes }
    }

    /// Whether `thread` is creating some store now.
    func isCreating(_ thread: ThreadID) -> Bool {
        creators.values.contains(thread)
    }

    /// The stores created so far, in registration order.
    var createdStores: [any StoreRuntime] {
        registrations.values.sorted { $0.order < $1.order }.compactMap { instances[$0.id] }
    }

    /// Makes anew the lists that reach `registration`'s store (its names', or all, for a catch-all)
    /// with the routes `update` returns, and the stores that exist now.
    private mutating func updateLists(of registration: Registration, _ update: ([Route], String) -> [Route]) {
        lastLookUp = nil
        let names = registration.fallback == nil ? Array(registration.handlers.keys) : lists.names
        // NB: the built-in mutation action reaches no handler, whatever the stores declare.
        for name in names where name != AnyAction.mutationName {
            let routes = update(lists[name]?.handlerRoutes ?? [], name)
            lists[name] = routes.isEmpty ? nil : makeList(routes)
        }
        if registration.fallback != nil { fallbackList = makeList(fallback) }
    }

    /// Makes every list anew, with the stores that exist now and the computed stores that follow their stores.
    private mutating func updateAllLists() {
        lastLookUp = nil
        for name in lists.names where name != AnyAction.mutationName {
            if let list = lists[name] { lists[name] = makeList(list.handlerRoutes) }
        }
        fallbackList = makeList(fallback)
    }

    /// The list of the handlers' `routes`, followed by the derivations of the computed stores that follow
    /// their stores, with the stores that exist now.
    private func makeList(_ routes: some Collection<Route>) -> RouteList {
        guard computedCount > 0 else { return RouteList(routes, instances: instances) }
        let derived = computedDependents(of: Set(routes.map(\.storeID))).compactMap { registration in
            registration.computation.map { Route(registration: registration, handler: $0) }
        }
        return RouteList(routes, derived: derived, instances: instances)
    }

    /// The computed stores that follow any of the stores `ids`, directly or through others, in registration
    /// order: an order in which each comes after its sources, which were registered before it.
    func computedDependents(of ids: Set<ObjectIdentifier>) -> [Registration] {
        guard computedCount > 0 else { return [] }
        var changed = ids
        var dependents: [Registration] = []
        for registration in registrations.values.sorted(by: { $0.order < $1.order })
        where registration.isComputed
            && registration.sources.contains(where: { changed.contains(ObjectIdentifier($0)) })
        {
            dependents.append(registration)
            changed.insert(registration.id)
        }
        return dependents
    }
}

extension RouteIndex {
    /// Refuses a derived store whose sources are not registered, or that a source derives from.
    ///
    /// - Throws: ``FluxionError/sourceNotRegistered(_:derivedStore:)`` or ``FluxionError/derivationCycle(_:)``.
    func checkSources(of registration: Registration) throws {
        for source in registration.sources {
            guard let sourceRegistration = registrations[ObjectIdentifier(source)] else {
                throw FluxionError.sourceNotRegistered(typeName(source), derivedStore: registration.name)
            }
            if let path = path(from: sourceRegistration, to: registration.id) {
                throw FluxionError.derivationCycle([registration.name] + path.map(\.name) + [registration.name])
            }
        }
    }

    /// The registrations from `start` through its sources to the type `target`, if it derives from it.
    private func path(from start: Registration, to target: ObjectIdentifier) -> [Registration]? {
        for source in start.sources {
            let id = ObjectIdentifier(source)
            if id == target { return [start] }
            if let next = registrations[id], let rest = path(from: next, to: target) { return [start] + rest }
        }
        return nil
    }
}
