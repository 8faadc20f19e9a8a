// Closure handlers that receive their store: a store's dependencies, typed, without a method.
extension HandlerTable {
    /// Returns a table that also handles the named action with a closure that receives its store.
    ///
    /// ``Store/handlers`` is a class property, so a closure in it has no
    /// `self` to reach the store's dependencies: `self.api` there fails with
    /// "instance member 'api' cannot be used on type". Name the store type,
    /// and the closure receives the instance the dispatcher created:
    ///
    /// ```swift
    /// override class var handlers: Handlers {
    ///     HandlerTable()
    ///         .on(.addToCart, in: CartStore.self) { store, cart, action in
    ///             cart.items.append(CartItem(sku: action.payload, price: try store.prices.price(of: action.payload)))
    ///         }
    /// }
    /// ```
    ///
    /// This is a method handler written in place (``route(_:to:)-6p2u2``): it
    /// works on a copy of the state, and can call ``Store/waitFor(_:)`` on
    /// `store`.
    ///
    /// - Parameters:
    ///   - name: The action name to handle.
    ///   - owner: The store type the closure runs for; the table's own store type.
    ///   - handler: Updates the state for the action, given the store; may throw to reject it.
    @inlinable
    public func on<Owner: Store<State>, Payload>(
        _ name: ActionName<Payload>,
        in owner: Owner.Type,
        _ handler: @escaping @Sendable (Owner, inout State, Action<Payload>) throws -> Void
    ) -> HandlerTable {
        adding(name) { store, state, action in
            try handler(Self.owner(store, as: Owner.self, handling: name.rawValue), &state, action)
        }
    }

    /// Returns a table that also handles the named action with a closure that receives its store and may ask for effects.
    ///
    /// Ask for ``Effects`` as the closure's fourth parameter with `with: .effects`:
    ///
    /// ```swift
    /// .on(.search, in: SearchStore.self, with: .effects) { store, search, action, effects in
    ///     search.query = action.payload
    ///     effects.run(id: "search", cancelInFlight: true) { [api = store.api] dispatcher in
    ///         try dispatcher.dispatch(.searchFinished, payload: try await api.search(action.payload))
    ///     }
    /// }
    /// ```
    ///
    /// Otherwise this is the form without ``Effects``, above.
    ///
    /// - Parameters:
    ///   - name: The action name to handle.
    ///   - owner: The store type the closure runs for; the table's own store type.
    ///   - effects: `.effects`: the closure's fourth parameter is the ``Effects`` of its handler call.
    ///   - handler: Updates the state for the action and asks for effects, given the store; may throw to reject it.
    @inlinable
    public func on<Owner: Store<State>, Payload>(
        _ name: ActionName<Payload>,
        in owner: Owner.Type,
        with effects: Effects.Parameter,
        _ handler: @escaping @Sendable (Owner, inout State, Action<Payload>, Effects) throws -> Void
    ) -> HandlerTable {
        adding(name) { store, state, action in
            try handler(
                Self.owner(store, as: Owner.self, handling: name.rawValue), &state, action,
                Effects(store.turnLink))
        }
    }
}
