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

    /// Creates a change.
    public init(oldState: State, newState: State, action: AnyAction, error: (any Error)? = nil) {
        self.oldState = oldState
        self.newState = newState
        self.action = action
        self.error = error
        self.isCurrentState = false
    }

    /// The first call of an observer that asked for the current state.
    @usableFromInline
    init(currentState: State) {
        self.oldState = currentState
        self.newState = currentState
        self.action = .currentState
        self.error = nil
        self.isCurrentState = true
    }
}
