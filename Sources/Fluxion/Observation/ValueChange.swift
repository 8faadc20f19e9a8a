/// How one value selected from a store's state changed in one dispatch.
///
/// Key-path and selector observers receive it, and only when the value
/// changed: see ``Store/observe(owner:_:on:sendingCurrentState:_:)`` and ``Store/observe(owner:selecting:isEqual:on:sendingCurrentState:onChange:)``.
public struct ValueChange<Value: Sendable>: Sendable {
    /// The value before the action.
    public let oldValue: Value

    /// The value after the action.
    public let newValue: Value

    /// The action that changed the value.
    public let action: AnyAction

    /// Creates a value change.
    public init(oldValue: Value, newValue: Value, action: AnyAction) {
        self.oldValue = oldValue
        self.newValue = newValue
        self.action = action
    }
}
