/// What one dispatch did to one store: the state before and after, the action, and any error.
///
/// A store's observers receive one change for each dispatch in which one of
/// its handlers ran, after every store has handled the action.
public struct StoreChange<State: Sendable>: Sendable {
    /// The state before the action.
    public let oldState: State

    /// The state after the action; equal to ``oldState`` when the handler threw.
    public let newState: State

    /// The action that caused the change, with its name, payload and carried error.
    public let action: AnyAction

    /// The error the store's handler threw, if it threw; the state was then rolled back.
    ///
    /// An error that the action itself carries is ``AnyAction/error`` on ``action``.
    public let error: (any Error)?

    /// Whether this is the first call of an observer that asked for the current state,
    /// rather than a change: ``oldState`` and ``newState`` are then both the current state.
    public let isCurrentState: Bool

    /// The store's count of committed changes when this one was committed; 0 when unknown.
    ///
    /// An observer that joined after that count was reached must not hear this change.
    @usableFromInline let serial: UInt64

    /// Creates a change.
    public init(oldState: State, newState: State, action: AnyAction, error: (any Error)? = nil) {
        self.init(oldState: oldState, newState: newState, action: action, error: error, serial: 0)
    }

    /// Creates a change with its serial number.
    @usableFromInline
    init(oldState: State, newState: State, action: AnyAction, error: (any Error)?, serial: UInt64) {
        self.oldState = oldState
        self.newState = newState
        self.action = action
        self.error = error
        self.isCurrentState = false
        self.serial = serial
    }

    /// The first call of an observer that asked for the current state.
    @usableFromInline
    init(currentState: State) {
        self.oldState = currentState
        self.newState = currentState
        self.action = .currentState
        self.error = nil
        self.isCurrentState = true
        self.serial = 0
    }
}
