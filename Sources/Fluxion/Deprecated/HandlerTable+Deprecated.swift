// Spellings replaced in issue 35, kept for one release; each forwards to its new form.
//
// NB: every one is `@_disfavoredOverload`, so that a table in the new spellings type-checks as fast with
// them as without them: the type checker tries the favoured `on(_:_:)` first for a closure entry, it fits,
// and the disfavoured ones are never tried. Were one of them favoured, every closure entry would be tried
// against it too; that is what made a table of sixteen entries fail to type-check in reasonable time. A
// table still in the old spellings gets a warning per entry and is not reliably faster to type-check than
// it was: a large one may still fail to.
extension HandlerTable {
    /// Returns a table that also handles the named action with a closure that may ask for effects.
    ///
    /// Spelled ``on(_:with:_:)`` now: `.on(.search, with: .effects) { state, action, effects in … }`.
    @available(*, deprecated, message: "ask for effects with 'with: .effects': .on(name, with: .effects) { … }")
    @inlinable @_disfavoredOverload
    public func on<Payload, Failure: Error>(
        _ name: ActionName<Payload>,
        _ handler: @escaping @Sendable (inout State, Action<Payload>, Effects) throws(Failure) -> Void
    ) -> HandlerTable {
        on(name, with: .effects, handler)
    }

    /// Returns a table that also routes the named action to a method of the store.
    ///
    /// Spelled ``route(_:to:)-6p2u2`` now: `.route(.addTodo, to: TodoStore.add)`.
    @available(*, deprecated, renamed: "route(_:to:)")
    @inlinable @_disfavoredOverload
    public func on<Owner: Store<State>, Payload>(
        _ name: ActionName<Payload>,
        _ method: @escaping @Sendable (Owner) -> (inout State, Action<Payload>) throws -> Void
    ) -> HandlerTable {
        route(name, to: method)
    }

    /// Returns a table that also routes the named action to a method of the store that may ask for effects.
    ///
    /// Spelled ``route(_:to:)-9s0up`` now: `.route(.search, to: SearchStore.search)`.
    @available(*, deprecated, renamed: "route(_:to:)")
    @inlinable @_disfavoredOverload
    public func on<Owner: Store<State>, Payload>(
        _ name: ActionName<Payload>,
        _ method: @escaping @Sendable (Owner) -> (inout State, Action<Payload>, Effects) throws -> Void
    ) -> HandlerTable {
        route(name, to: method)
    }

    /// Returns a table that also handles the named action with a closure that receives its store and may ask
    /// for effects.
    ///
    /// Spelled ``on(_:in:with:_:)`` now:
    /// `.on(.search, in: SearchStore.self, with: .effects) { store, search, action, effects in … }`.
    @available(*, deprecated, message: "ask for effects with 'with: .effects': .on(name, in: …, with: .effects)")
    @inlinable @_disfavoredOverload
    public func on<Owner: Store<State>, Payload>(
        _ name: ActionName<Payload>,
        in owner: Owner.Type,
        _ handler: @escaping @Sendable (Owner, inout State, Action<Payload>, Effects) throws -> Void
    ) -> HandlerTable {
        on(name, in: owner, with: .effects, handler)
    }
}
