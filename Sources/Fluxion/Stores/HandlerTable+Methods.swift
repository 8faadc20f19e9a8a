// Method handlers: an unapplied method of the store, routed to by name.
extension HandlerTable {
    /// Returns a table that also routes the named action to a method of the store.
    ///
    /// Pass the method unapplied, as in `.route(.addTodo, to: TodoStore.add)`; the
    /// method runs on the store instance the dispatcher created, so it can use
    /// ``Store/waitFor(_:)`` and read other stores. It is bound to that store
    /// the first time it runs there, not at every dispatch: a method handler
    /// costs what a closure handler costs. (A curried closure passed in its
    /// place, `{ (store: TodoStore) in … return store.add }`, runs then, on
    /// the dispatching thread, and not again for that store while its routes
    /// stay as they are.)
    ///
    /// A later entry for the same name replaces an earlier one, whatever its form.
    ///
    /// - Parameters:
    ///   - name: The action name to handle.
    ///   - method: A method of the store type that updates the state.
    @inlinable
    public func route<Owner: Store<State>, Payload>(
        _ name: ActionName<Payload>,
        to method: @escaping @Sendable (Owner) -> (inout State, Action<Payload>) throws -> Void
    ) -> HandlerTable {
        adding(name) { store, state, action in
            try method(Self.owner(store, as: Owner.self, handling: name.rawValue))(&state, action)
        } binding: { (owner: Owner) in
            // NB: bound once per route; only the dispatch turn's holder calls it, one thread at a time.
            nonisolated(unsafe) let method = method(owner)
            return { _, state, action in try method(&state, action) }
        }
    }

    /// Returns a table that also routes the named action to a method of the store that may ask for effects.
    ///
    /// Pass the method unapplied, as in `.route(.search, to: SearchStore.search)`,
    /// where `func search(_ state: inout Search, _ action: Action<String>, _ effects: Effects)`;
    /// see ``Effects``. Otherwise this is the form without effects, ``route(_:to:)-6p2u2``.
    ///
    /// - Parameters:
    ///   - name: The action name to handle.
    ///   - method: A method of the store type that updates the state and asks for effects.
    @inlinable
    public func route<Owner: Store<State>, Payload>(
        _ name: ActionName<Payload>,
        to method: @escaping @Sendable (Owner) -> (inout State, Action<Payload>, Effects) throws -> Void
    ) -> HandlerTable {
        adding(name) { store, state, action in
            try method(Self.owner(store, as: Owner.self, handling: name.rawValue))(
                &state, action, Effects(store.turnLink))
        } binding: { (owner: Owner) in
            // NB: bound once per route; only the dispatch turn's holder calls it, one thread at a time.
            nonisolated(unsafe) let method = method(owner)
            return { store, state, action in try method(&state, action, Effects(store.turnLink)) }
        }
    }
}
