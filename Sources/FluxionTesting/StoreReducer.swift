import Fluxion

/// Runs a store type's handler table on a plain state value, without a dispatcher: pure reducer tests.
///
/// ```swift
/// let reducer = StoreReducer(CounterStore())
/// var state = Counter(count: 1)
/// try reducer.reduce(&state, .add, payload: 2)
/// #expect(state.count == 3)
/// ```
///
/// The store passed in is the one method handlers (`.route(.name, to: CounterStore.method)`)
/// run on; its own state is not read or changed. A handler that calls
/// ``/Fluxion/Store/waitFor(_:)`` needs a dispatcher and throws
/// ``/Fluxion/FluxionError/waitForOutsideDispatch(_:)`` here: test such stores with a ``TestDispatcher``.
public struct StoreReducer<State: Sendable, S: Store<State>> {
    private let store: S
    private let table: HandlerTable<State>

    /// A reducer over the handler table of `store`'s type.
    ///
    /// ```swift
    /// let reducer = StoreReducer(CounterStore())
    /// ```
    ///
    /// - Parameter store: The store method handlers run on; its state is not read or changed.
    public init(_ store: S) {
        self.store = store
        table = S.handlers
    }

    /// Runs the handler of `action` on `state`; if it throws, `state` is left as it was.
    ///
    /// ```swift
    /// var state = Counter(count: 1)
    /// let handled = try reducer.reduce(&state, AnyAction(name: "somethingElse", payload: 2))
    /// #expect(!handled && state.count == 1)  // no handler takes it: the state is left alone
    /// ```
    ///
    /// - Parameters:
    ///   - state: The state the handler changes.
    ///   - action: The action, as a dispatcher would pass it to the stores.
    /// - Returns: Whether a handler took the action; `false` leaves `state` alone.
    /// - Throws: What the handler throws.
    @discardableResult
    public func reduce(_ state: inout State, _ action: AnyAction) throws -> Bool {
        var next = state
        let handled = try table.reduce(&next, action, on: store)
        state = next
        return handled
    }

    /// Runs the handler of a typed action on `state`; see ``reduce(_:_:)``.
    ///
    /// ```swift
    /// var state = Counter(count: 1)
    /// try reducer.reduce(&state, .add, payload: 2)
    /// #expect(state.count == 3)
    /// ```
    ///
    /// - Parameters:
    ///   - state: The state the handler changes; left as it was if the handler throws.
    ///   - name: The action's name.
    ///   - payload: The action's payload.
    ///   - error: The error the action carries; `nil` for none.
    /// - Returns: Whether a handler took the action; `false` leaves `state` alone.
    /// - Throws: What the handler throws.
    @discardableResult
    public func reduce<Payload: Sendable>(
        _ state: inout State, _ name: ActionName<Payload>, payload: Payload, error: (any Error)? = nil
    ) throws -> Bool {
        try reduce(&state, AnyAction(name: name.rawValue, payload: payload, error: error))
    }

    /// Runs the handler of a typed action without a payload on `state`; see ``reduce(_:_:)``.
    ///
    /// ```swift
    /// var state = Counter(count: 7)
    /// try reducer.reduce(&state, .reset)
    /// #expect(state.count == 0)
    /// ```
    ///
    /// - Parameters:
    ///   - state: The state the handler changes; left as it was if the handler throws.
    ///   - name: The action's name.
    ///   - error: The error the action carries; `nil` for none.
    /// - Returns: Whether a handler took the action; `false` leaves `state` alone.
    /// - Throws: What the handler throws.
    @discardableResult
    public func reduce(_ state: inout State, _ name: ActionName<Void>, error: (any Error)? = nil) throws -> Bool {
        try reduce(&state, AnyAction(name: name.rawValue, payload: (), error: error))
    }
}
