/// The name of an action, tied at compile time to the type of its payload.
///
/// Declare each action once, as a static property, and both the dispatch site
/// and the handler agree on the payload type without casts:
///
/// ```swift
/// extension ActionName where Payload == Int {
///     static var increment: Self { "increment" }
/// }
///
/// try dispatcher.dispatch(.increment, payload: 2)
/// ```
///
/// Names are compared by their string, so an action dispatched with
/// ``Dispatcher/dispatch(_:)->()`` under the same raw name reaches the same
/// handlers. For an action that carries no payload, use `ActionName<Void>`.
public struct ActionName<Payload: Sendable>: Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The string the action is routed by.
    public let rawValue: String

    /// Creates a name from its string.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a name from a string literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The raw name.
    public var description: String { rawValue }
}
