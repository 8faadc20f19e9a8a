// Derived stores: stores whose first state is computed from other stores' states.
extension Dispatcher {
    /// Registers a store type whose first state is computed from another store's current state.
    ///
    /// A derived store — counts of a list, a checkout that depends on the
    /// cart — must start from its source as it is when the derived store is
    /// created, restored archive included, and then follow it with
    /// ``Store/waitFor(_:)`` in its handlers. Declare the source here, and
    /// the factory receives its state:
    ///
    /// ```swift
    /// try dispatcher.register(TodoStore.self, persistence: Persistence(storage: storage, key: "todos"))
    /// try dispatcher.register(StatsStore.self, derivedFrom: TodoStore.self) { todos in
    ///     StatsStore(counting: todos.items)
    /// }
    /// ```
    ///
    /// When the derived store is first needed, the dispatcher creates the
    /// source first if it does not exist yet (restoring its archive), then
    /// calls `factory` with the source's committed state: never a state in
    /// the middle of an action, even when the derived store is created by
    /// one.
    ///
    /// - Parameters:
    ///   - type: The derived store type.
    ///   - source: The store type it starts from; registered already.
    ///   - factory: Makes the store from the source's current state.
    /// - Throws: ``FluxionError/sourceNotRegistered(_:derivedStore:)`` when `source` is not
    ///   registered (also thrown by ``store(_:)`` if it was unregistered before the derived store
    ///   was created); ``FluxionError/derivationCycle(_:)`` when `source` starts from `type`;
    ///   and the errors of ``register(_:factory:)``.
    public func register<State, S: Store<State>, SourceState, Source: Store<SourceState>>(
        _ type: S.Type,
        derivedFrom source: Source.Type,
        factory: @escaping @Sendable (SourceState) -> S
    ) throws {
        try register(type, sources: [source], make: Self.make(source, factory), prepare: nil)
    }

    /// Registers a derived store type whose own state is archived too.
    ///
    /// ```swift
    /// try dispatcher.register(
    ///     HistoryStore.self, derivedFrom: TodoStore.self,
    ///     persistence: Persistence(storage: storage, key: "todos.history")
    /// ) { HistoryStore(tracking: $0) }
    /// ```
    ///
    /// The factory starts the store from its source, as in
    /// ``register(_:derivedFrom:factory:)``; then, as for any persisted
    /// store, a restored archive of its own replaces that state.
    ///
    /// - Throws: The errors of ``register(_:derivedFrom:factory:)`` and ``register(_:persistence:factory:)``.
    public func register<State: Codable, S: Store<State>, SourceState, Source: Store<SourceState>>(
        _ type: S.Type,
        derivedFrom source: Source.Type,
        persistence: Persistence<State>,
        factory: @escaping @Sendable (SourceState) -> S
    ) throws {
        try register(type, persistence: persistence) { prepare in
            try self.register(type, sources: [source], make: Self.make(source, factory), prepare: prepare)
        }
    }

    /// Registers a store type whose first state is computed from two other stores' current states.
    ///
    /// ```swift
    /// try dispatcher.register(CheckoutStore.self, derivedFrom: SessionStore.self, CartStore.self) { session, cart in
    ///     CheckoutStore(session: session, cart: cart)
    /// }
    /// ```
    ///
    /// The sources are created in the order given, if they do not exist yet;
    /// see ``register(_:derivedFrom:factory:)``.
    ///
    /// - Throws: The errors of ``register(_:derivedFrom:factory:)``.
    public func register<
        State, S: Store<State>, FirstState, First: Store<FirstState>, SecondState, Second: Store<SecondState>
    >(
        _ type: S.Type,
        derivedFrom first: First.Type,
        _ second: Second.Type,
        factory: @escaping @Sendable (FirstState, SecondState) -> S
    ) throws {
        try register(type, sources: [first, second], make: Self.make(first, second, factory), prepare: nil)
    }

    /// Registers a store type derived from two others whose own state is archived too.
    ///
    /// See ``register(_:derivedFrom:persistence:factory:)``.
    ///
    /// - Throws: The errors of ``register(_:derivedFrom:persistence:factory:)``.
    public func register<
        State: Codable, S: Store<State>, FirstState, First: Store<FirstState>, SecondState, Second: Store<SecondState>
    >(
        _ type: S.Type,
        derivedFrom first: First.Type,
        _ second: Second.Type,
        persistence: Persistence<State>,
        factory: @escaping @Sendable (FirstState, SecondState) -> S
    ) throws {
        try register(type, persistence: persistence) { prepare in
            try self.register(
                type, sources: [first, second], make: Self.make(first, second, factory), prepare: prepare)
        }
    }

    /// What makes a store derived from `source` with `factory`.
    ///
    /// NB: the source is looked up by the metatype passed, not by `Source`: Swift may infer
    /// `Source` as the base class `Store<SourceState>` when given `TodoStore.self` (the todo app's
    /// wiring did, so `TodoTests` fail without this).
    private static func make<State, S: Store<State>, SourceState, Source: Store<SourceState>>(
        _ source: Source.Type,
        _ factory: @escaping @Sendable (SourceState) -> S
    ) -> @Sendable (Dispatcher) throws -> S {
        { dispatcher in factory(try dispatcher.sourceState(of: source, for: S.self)) }
    }

    /// What makes a store derived from `First` and `Second` with `factory`.
    private static func make<
        State, S: Store<State>, FirstState, First: Store<FirstState>, SecondState, Second: Store<SecondState>
    >(
        _ first: First.Type,
        _ second: Second.Type,
        _ factory: @escaping @Sendable (FirstState, SecondState) -> S
    ) -> @Sendable (Dispatcher) throws -> S {
        { dispatcher in
            let firstState = try dispatcher.sourceState(of: first, for: S.self)
            return factory(firstState, try dispatcher.sourceState(of: second, for: S.self))
        }
    }

    /// The committed state of the source `source` of the derived store `Derived`, created now if need be.
    private func sourceState<SourceState, Source: Store<SourceState>, Derived>(
        of source: Source.Type,
        for derived: Derived.Type
    ) throws -> SourceState {
        let registration = state.withLock { $0.index.registrations[ObjectIdentifier(source)] }
        guard let registration else {
            throw FluxionError.sourceNotRegistered(typeName(source), derivedStore: typeName(Derived.self))
        }
        // NB: the registration of `source` makes stores of that type, a `Store<SourceState>`.
        return unsafeDowncast(try instance(of: registration), to: Store<SourceState>.self).committedState
    }
}
