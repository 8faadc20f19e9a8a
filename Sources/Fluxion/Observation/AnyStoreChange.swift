/// A ``StoreChange`` of any store, with the store's state type erased.
///
/// Observers of a whole dispatcher receive one for each change of each of its
/// stores: see ``Dispatcher/observe(owner:on:sendingCurrentState:_:)``.
///
/// ```swift
/// dispatcher.observe(owner: logger) { logger, change in
///     logger.log("\(change.storeType) after \(change.action.name)")
///     if let todos = change.change(as: TodoList.self) { logger.count(todos.newState.items) }
/// }
/// ```
public struct AnyStoreChange: Sendable {
    /// The store that changed.
    public let store: any AnyObject & Sendable

    /// The state before the action.
    public let oldState: any Sendable

    /// The state after the action.
    public let newState: any Sendable

    /// The action that caused the change.
    public let action: AnyAction

    /// Whether this is the first call of an observer that asked for the current state.
    public let isCurrentState: Bool

    /// Erases the state type of a store's change.
    public init<State>(_ change: StoreChange<State>, of store: Store<State>) {
        self.store = store
        self.oldState = change.oldState
        self.newState = change.newState
        self.action = change.action
        self.isCurrentState = change.isCurrentState
    }

    /// The type of the store that changed, for example `TodoStore.self`.
    public var storeType: any AnyObject.Type {
        type(of: store)
    }

    /// The store that changed, as the given type, or `nil` when it has another type.
    public func store<S: AnyObject>(as type: S.Type) -> S? {
        store as? S
    }

    /// The typed change, when the store's state has the given type; `nil` otherwise.
    public func change<State: Sendable>(as type: State.Type) -> StoreChange<State>? {
        guard let oldState = oldState as? State, let newState = newState as? State else { return nil }
        if isCurrentState { return StoreChange(currentState: newState) }
        return StoreChange(oldState: oldState, newState: newState, action: action)
    }
}
