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
///
/// A change does not keep its store alive: ``store`` is a weak reference,
/// `nil` once the store is gone (its dispatcher released, or the type
/// unregistered). A change kept in a log, or waiting in a
/// ``Dispatcher/changes`` buffer, holds the states and the action, not the
/// store; ``storeType``, ``change(as:)`` and the states stay available.
public struct AnyStoreChange: Sendable {
    /// The store that changed, while it exists; `nil` once it is gone.
    ///
    /// A weak reference: keeping a change does not keep its store, or the
    /// store's observers and streams, alive.
    public var store: (any AnyObject & Sendable)? {
        reference.store
    }

    /// The type of the store that changed, for example `TodoStore.self`; known even once the store is gone.
    public let storeType: any AnyObject.Type

    /// The weak reference to the store, shared by the changes of one store.
    let reference: StoreReference

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
        self.init(change, reference: StoreReference(store))
    }

    /// Erases the state type of a change of the store `reference` refers to.
    init<State>(_ change: StoreChange<State>, reference: StoreReference) {
        self.reference = reference
        self.storeType = reference.type
        self.oldState = change.oldState
        self.newState = change.newState
        self.action = change.action
        self.isCurrentState = change.isCurrentState
    }

    /// The store that changed, as the given type; `nil` when it has another type, or is gone.
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
