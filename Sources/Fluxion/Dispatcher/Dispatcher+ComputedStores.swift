// Computed stores: stores whose state is a function of other stores' states, kept in step with them
// inside each transaction. The dispatcher gives a computed store a handler for every action its sources
// handle; it runs after theirs (or makes them run first), and computes the state anew when a source's
// state changed. A batch's inline mutation of a source computes its dependents too.
extension Dispatcher {
    /// Registers a store type whose state is computed from other stores' states, and follows them.
    ///
    /// ```swift
    /// try dispatcher.register(UnreadCountStore.self, computedFrom: FeedStore.self, ReadStateStore.self) {
    ///     feed, read in feed.articles.count { !read.ids.contains($0.id) }
    /// }
    /// ```
    ///
    /// The store's state is `compute` of its sources' states, always. It is
    /// computed when the store is first needed (from the sources' committed
    /// states), and again inside every action, or batch, that changes one of
    /// its sources — after their handlers, before the step commits — so that
    /// no observer, and no reader inside ``read(_:)``, ever sees a source and
    /// its computed store disagree. An action that changes no source (an
    /// `Equatable` state left equal is no change) computes nothing; when the
    /// computed state is `Equatable`, a result equal to the state before is
    /// no change either. A new action handled by a source is followed with no
    /// change here: nothing can go stale.
    ///
    /// A computed store handles no action itself, and is otherwise a store
    /// like any other: observable, tracked by Observation, journaled and
    /// replayed, and it may be the source of another computed store. A
    /// `compute` that throws rolls the step back, as a handler that throws
    /// does. Take any number of sources, registered already.
    ///
    /// - Parameters:
    ///   - type: The computed store type; created with `init()`, whose state `compute` then replaces.
    ///   - sources: The store types it is computed from, registered already.
    ///   - compute: The state, from the sources' states, in the order of `sources`. Keep it fast and pure:
    ///     it runs on the dispatching thread, inside every action that changes a source.
    /// - Throws: ``FluxionError/computedStoreHandlesActions(_:)`` when the type's handler table has
    ///   entries; ``FluxionError/sourceNotRegistered(_:derivedStore:)`` for a source not registered;
    ///   ``FluxionError/derivationCycle(_:)`` for a store computed from itself; and the errors of
    ///   ``register(_:factory:)``.
    public func register<State, S: Store<State> & DefaultInitializable, each Source: StoreProtocol>(
        _ type: S.Type,
        computedFrom sources: repeat (each Source).Type,
        compute: @escaping @Sendable (repeat (each Source).State) throws -> State
    ) throws {
        var sourceTypes: [any AnyObject.Type] = []
        for source in repeat each sources { sourceTypes.append(source) }
        let table = S.handlers  // NB: user code: read before locking
        guard table.handlers.isEmpty, table.fallback == nil else {
            throw FluxionError.computedStoreHandlesActions(typeName(S.self))
        }
        if sourceTypes.contains(where: { $0 == S.self }) {
            throw FluxionError.derivationCycle([typeName(S.self), typeName(S.self)])
        }
        // NB: inside a step, a source's `state` is the state the step makes; a new store starts from committed ones.
        let computation: @Sendable (Dispatcher) throws -> State = { dispatcher in
            try compute(repeat try dispatcher.source(each sources, of: S.self).state)
        }
        let make: @Sendable (Dispatcher) throws -> S = { dispatcher in
            let store = S()
            store.currentState = try compute(repeat try dispatcher.source(each sources, of: S.self).committedState)
            return store
        }
        let named = sourceTypes.map { (id: ObjectIdentifier($0), name: typeName($0)) }
        let recompute = Handler(
            payload: nil, typed: nil, accepts: { _ in true },
            untyped: { [weak self] store, _ in
                let store = unsafeDowncast(store, to: Store<State>.self)
                guard let self else { return .failed(FluxionError.storeNotRegistered(typeName(S.self))) }
                return self.recompute(store, from: named) { try computation(self) }
            })
        let names = try namesHandled(by: sourceTypes, for: S.self)
        var computedTable = HandlerTable<State>()
        for name in names.actions { computedTable.handlers[name] = recompute }
        if names.catchesAll { computedTable.fallback = recompute }
        try register(
            type, sources: sourceTypes, make: make, prepare: nil, computed: (computedTable, recompute))
    }

    /// Computes `store`'s state anew with `computation`, if a source of `sources` changed in the running step.
    private func recompute<State>(
        _ store: Store<State>, from sources: [(id: ObjectIdentifier, name: String)],
        with computation: () throws -> State
    ) -> HandlerOutcome {
        do {
            var changed = false
            for (id, name) in sources {
                // NB: a source the action reaches runs first: a `waitFor` may have run this handler early.
                var source = transaction.isRunningHandler ? try runFirst(id, named: name) : nil
                if source == nil { source = state.withLock { $0.index.instances[id] } }
                if let source = source as? any StoreRuntime, source.hasStagedChange { changed = true }
            }
            guard changed else { return store.isStaging ? .staged : .committed(delivers: false) }
            let state = try computation()
            return store.apply { $0 = state }
        } catch {
            return .failed(error)
        }
    }

    /// The action names the stores `sources` handle, and whether one of them handles every action.
    private func namesHandled<S>(by sources: [any AnyObject.Type], for computed: S.Type) throws
        -> (actions: Set<String>, catchesAll: Bool)
    {
        try state.withLock { state in
            var names: (actions: Set<String>, catchesAll: Bool) = ([], false)
            for source in sources {
                guard let registration = state.index.registrations[ObjectIdentifier(source)] else {
                    throw FluxionError.sourceNotRegistered(typeName(source), derivedStore: typeName(S.self))
                }
                names.actions.formUnion(registration.handlers.keys)
                names.catchesAll = names.catchesAll || registration.fallback != nil
            }
            return names
        }
    }

    /// The store of the source type `source` of the computed store `Computed`, created now if need be.
    private func source<Source: StoreProtocol, Computed>(_ source: Source.Type, of computed: Computed.Type) throws
        -> Store<Source.State>
    {
        let registration = state.withLock { $0.index.registrations[ObjectIdentifier(source)] }
        guard let registration, let store = try instance(of: registration) as? Store<Source.State> else {
            throw FluxionError.sourceNotRegistered(typeName(source), derivedStore: typeName(Computed.self))
        }
        return store
    }

    /// Computes anew, in the running batch, the computed stores that follow the store `id` (a batch's
    /// inline mutation changed it), and those that follow them.
    func recomputeDependents(of id: ObjectIdentifier) throws {
        let dependents = state.withLock { $0.index.computedDependents(of: id) }
        for registration in dependents {
            guard let computation = registration.computation else { continue }
            let store = try instance(of: registration)
            try transaction.mutate(store, of: registration) { store in
                computation.untyped(store, AnyAction(name: AnyAction.mutationName))
            }
        }
    }
}

extension RouteIndex {
    /// The computed stores that follow the store `id`, directly or through others, in registration order.
    func computedDependents(of id: ObjectIdentifier) -> [Registration] {
        var changed: Set<ObjectIdentifier> = [id]
        var dependents: [Registration] = []
        for registration in registrations.values.sorted(by: { $0.order < $1.order })
        where registration.computation != nil
            && registration.sources.contains(where: { changed.contains(ObjectIdentifier($0)) })
        {
            dependents.append(registration)
            changed.insert(registration.id)
        }
        return dependents
    }
}
