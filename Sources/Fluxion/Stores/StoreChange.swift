/// What one action did to one store: the state before and after, and the action.
///
/// A store's observers receive one change for each action (or batch) that
/// changed the store, once the whole action has committed. An action whose
/// handler threw changed nothing and is not a change; an action that carries
/// an error (``AnyAction/error``) is a change like any other. When `State` is
/// `Equatable`, an action that leaves the state equal is not a change either.
public struct StoreChange<State: Sendable>: Sendable {
    /// The state before the action.
    public let oldState: State

    /// The state after the action.
    public let newState: State

    /// The action that caused the change, with its name, payload and carried error.
    public let action: AnyAction

    /// Whether this is the first call of an observer that asked for the current state,
    /// rather than a change: ``oldState`` and ``newState`` are then both the current state.
    public let isCurrentState: Bool

    /// The store's count of committed changes when this one was committed; 0 when unknown.
    ///
    /// An observer that joined after that count was reached must not hear this change.
    @usableFromInline let serial: UInt64

    /// Creates a change.
    public init(oldState: State, newState: State, action: AnyAction) {
        self.init(oldState: oldState, newState: newState, action: action, serial: 0)
    }

    /// Creates a change with its serial number.
    @usableFromInline
    init(oldState: State, newState: State, action: AnyAction, serial: UInt64) {
        self.oldState = oldState
        self.newState = newState
        self.action = action
        self.isCurrentState = false
        self.serial = serial
    }

    /// The first call of an observer that asked for the current state.
    @usableFromInline
    init(currentState: State) {
        self.oldState = currentState
        self.newState = currentState
        self.action = .currentState
        self.isCurrentState = true
        self.serial = 0
    }
}
