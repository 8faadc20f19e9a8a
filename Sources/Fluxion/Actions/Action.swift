/// An action as a handler receives it: a typed name, its payload and an optional error.
///
/// One action name can report both success and failure, as JBFlux did: give it
/// an optional payload and dispatch either the value or an error.
///
/// ```swift
/// extension ActionName where Payload == User? {
///     static var userLoaded: Self { "userLoaded" }
/// }
///
/// try dispatcher.dispatch(.userLoaded, payload: user)
/// try dispatcher.dispatch(.userLoaded, payload: nil, error: LoadError.offline)
/// ```
public struct Action<Payload: Sendable>: Sendable {
    /// The action's name.
    public let name: ActionName<Payload>

    /// The value the action carries.
    public let payload: Payload

    /// The error the action carries, if any (for example, a failed request).
    public let error: (any Error)?

    /// Creates an action.
    public init(_ name: ActionName<Payload>, payload: Payload, error: (any Error)? = nil) {
        self.name = name
        self.payload = payload
        self.error = error
    }
}

extension Action where Payload == Void {
    /// Creates an action without a payload.
    public init(_ name: ActionName<Void>, error: (any Error)? = nil) {
        self.init(name, payload: (), error: error)
    }
}
