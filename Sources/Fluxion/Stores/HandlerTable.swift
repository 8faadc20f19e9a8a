/// A store type's handlers: one per action name, plus an optional catch-all reducer.
///
/// A store type declares its table once, by overriding ``Store/handlers``.
/// A handler receives the state as `inout` and the typed action; it may be a
/// closure or a method of the store:
///
/// ```swift
/// final class CounterStore: Store<Counter>, DefaultInitializable, @unchecked Sendable {
///     override class var handlers: Handlers {
///         HandlerTable()
///             .on(.increment) { state, action in state.count += action.payload }
///             .route(.reset, to: CounterStore.reset)
///     }
///
///     func reset(_ state: inout Counter, _ action: Action<Void>) throws {
///         state.count = 0
///     }
/// }
/// ```
///
/// Each form of entry has a spelling of its own, so that a table of any size
/// type-checks quickly: `.on(name) { state, action in … }` for a closure,
/// `.on(name, with: .effects) { state, action, effects in … }` for one that
/// asks for ``Effects``, `.on(name, in: MyStore.self) { store, state, action in … }`
/// for one given its store, and `.route(name, to: MyStore.method)` for a method.
///
/// A handler that throws rejects the whole action: every store it reached
/// keeps the state it had before (handlers mutate copies, committed together
/// once every handler has returned).
///
/// Two store types of one dispatcher that declare one action name must agree
/// on its payload type; ``Dispatcher/register(_:)`` refuses the second one otherwise.
public struct HandlerTable<State: Sendable>: Sendable {
    @usableFromInline var handlers: [String: Handler] = [:]
    @usableFromInline var fallback: Handler?
    /// The handlers' bodies on a plain state value, for tests that run the table without a dispatcher.
    @usableFromInline var bodies: [String: @Sendable (Store<State>, inout State, AnyAction) throws -> Void] = [:]
    @usableFromInline var fallbackBody: (@Sendable (inout State, AnyAction) throws -> Void)?
    @usableFromInline let operations = StoreOperations.of(State.self)

    /// Creates an empty table.
    @inlinable
    public init() {}

    /// Returns a table that also handles the named action with a closure.
    ///
    /// A later entry for the same name replaces an earlier one.
    ///
    /// A closure that cannot throw (`Failure` is `Never`, as Swift infers for
    /// a closure with no `try`) changes the state in place when nothing needs
    /// the state from before the action — no observer, no persistence, no
    /// Observation tracking of the whole state that compares it — and the
    /// action reaches this store alone: appending to an array of a million
    /// items then costs an append, not a copy of the array. Otherwise it
    /// changes a copy, as a closure that can throw always does, so that the
    /// action can roll back.
    ///
    /// - Parameters:
    ///   - name: The action name to handle.
    ///   - handler: Updates the state for the action; may throw to reject it.
    @inlinable
    public func on<Payload, Failure: Error>(
        _ name: ActionName<Payload>,
        _ handler: @escaping @Sendable (inout State, Action<Payload>) throws(Failure) -> Void
    ) -> HandlerTable {
        adding(name, inPlace: Failure.self == Never.self) { _, state, action in try handler(&state, action) }
    }

    /// Returns a table that also handles the named action with a closure that may ask for effects.
    ///
    /// Ask for ``Effects`` as the closure's third parameter with `with: .effects`:
    ///
    /// ```swift
    /// .on(.search, with: .effects) { state, action, effects in
    ///     state.query = action.payload
    ///     effects.run(id: "search", cancelInFlight: true) { dispatcher in
    ///         try dispatcher.dispatch(.searchFinished, payload: try await api.search(action.payload))
    ///     }
    /// }
    /// ```
    ///
    /// The effects start when the action commits, and not at all if it rolls
    /// back; see ``Effects``. Otherwise this is the two-parameter form, ``on(_:_:)-5ira6``.
    ///
    /// - Parameters:
    ///   - name: The action name to handle.
    ///   - effects: `.effects`: the closure's third parameter is the ``Effects`` of its handler call.
    ///   - handler: Updates the state for the action, and asks for effects; may throw to reject it.
    @inlinable
    public func on<Payload, Failure: Error>(
        _ name: ActionName<Payload>,
        with effects: Effects.Parameter,
        _ handler: @escaping @Sendable (inout State, Action<Payload>, Effects) throws(Failure) -> Void
    ) -> HandlerTable {
        adding(name, inPlace: Failure.self == Never.self) { store, state, action in
            try handler(&state, action, Effects(store.turnLink))
        }
    }

    /// Returns a table whose catch-all reducer handles every action that has no entry of its own.
    ///
    /// This is the Redux style: one function over the whole state that
    /// switches on ``AnyAction/name``. A store with a catch-all reducer takes
    /// part in every dispatch of its dispatcher.
    ///
    /// - Parameter reducer: Updates the state for any action; may throw to reject it.
    @inlinable
    public func otherwise(
        _ reducer: @escaping @Sendable (inout State, AnyAction) throws -> Void
    ) -> HandlerTable {
        var table = self
        table.fallbackBody = reducer
        table.fallback = Handler(
            payload: nil,
            typed: nil,
            accepts: { _ in true },
            untyped: { store, action in
                unsafeDowncast(store, to: Store<State>.self).apply { state in try reducer(&state, action) }
            }
        )
        return table
    }

    /// `store` as the type whose method handles `name`.
    ///
    /// - Throws: ``FluxionError/storeTypeMismatch(action:expected:actual:)`` when the method is another type's.
    @inlinable
    static func owner<Owner: Store<State>>(_ store: Store<State>, as _: Owner.Type, handling name: String) throws
        -> Owner
    {
        guard let owner = store as? Owner else {
            throw FluxionError.storeTypeMismatch(
                action: name, expected: typeName(Owner.self), actual: typeName(type(of: store)))
        }
        return owner
    }

    // NB: made inlinable so the closures below are specialised in the module that
    // declares the store: the dispatch path then has no generic-metadata lookups.
    @inlinable
    func adding<Payload, Owner: Store<State>>(
        _ name: ActionName<Payload>,
        inPlace: Bool = false,
        _ body: @escaping @Sendable (Store<State>, inout State, Action<Payload>) throws -> Void,
        binding bind: (@Sendable (Owner) -> @Sendable (Store<State>, inout State, Action<Payload>) throws -> Void)?
    ) -> HandlerTable {
        var table = self
        table.bodies[name.rawValue] = { store, state, action in
            guard let payload = cast(action.payload, to: Payload.self) else {
                throw FluxionError.payloadTypeMismatch(
                    action: action.name, expected: typeName(Payload.self), actual: typeName(type(of: action.payload)))
            }
            try body(store, &state, Action(ActionName(action.name), payload: payload, error: action.error))
        }
        let binding = bind.map { bind in
            { @Sendable (store: AnyObject) -> Handler? in
                (store as? Owner).map { Self.handler(of: name, inPlace: inPlace, bind($0)) }
            }
        }
        table.handlers[name.rawValue] = Self.handler(of: name, inPlace: inPlace, body, binding: binding)
        return table
    }

    @inlinable
    func adding<Payload>(
        _ name: ActionName<Payload>,
        inPlace: Bool = false,
        _ body: @escaping @Sendable (Store<State>, inout State, Action<Payload>) throws -> Void
    ) -> HandlerTable {
        adding(name, inPlace: inPlace, body, binding: Optional<@Sendable (Store<State>) -> _>.none)
    }

    /// The handler of the action `name` whose body is `body`.
    @inlinable
    static func handler<Payload>(
        of name: ActionName<Payload>,
        inPlace: Bool,
        _ body: @escaping @Sendable (Store<State>, inout State, Action<Payload>) throws -> Void,
        binding: (@Sendable (AnyObject) -> Handler?)? = nil
    ) -> Handler {
        Handler(
            payload: Payload.self,
            typed: TypedHandler<Payload> { store, name, payload, error in
                let store = unsafeDowncast(store, to: Store<State>.self)
                func mutate(_ state: inout State) throws {
                    try body(store, &state, Action(ActionName(name), payload: payload, error: error))
                }
                // NB: in place when it can, on a copy otherwise: decided here, so that no function between decides.
                if inPlace, store.mayApplyInPlace, let outcome = store.applyInPlace(mutate) { return outcome }
                return store.apply(mutate)
            },
            accepts: { cast($0, to: Payload.self) != nil },
            untyped: { store, action in
                let store = unsafeDowncast(store, to: Store<State>.self)
                guard let payload = cast(action.payload, to: Payload.self) else {
                    return .failed(
                        FluxionError.payloadTypeMismatch(
                            action: action.name,
                            expected: typeName(Payload.self),
                            actual: typeName(type(of: action.payload))
                        ))
                }
                func mutate(_ state: inout State) throws {
                    try body(store, &state, Action(ActionName(action.name), payload: payload, error: action.error))
                }
                if inPlace, store.mayApplyInPlace, let outcome = store.applyInPlace(mutate) { return outcome }
                return store.apply(mutate)
            },
            binding: binding
        )
    }
}

extension HandlerTable {
    /// Runs the handler of `action`'s name, or the catch-all reducer, on `state`, with `store` as the
    /// method handlers' store; `false` when no handler takes the name.
    ///
    /// For tests of a table alone: no dispatcher, no observers, no other store.
    package func reduce(_ state: inout State, _ action: AnyAction, on store: Store<State>) throws -> Bool {
        if let body = bodies[action.name] {
            try body(store, &state, action)
        } else if let fallbackBody {
            try fallbackBody(&state, action)
        } else {
            return false
        }
        return true
    }
}
