/// An action whose payload type is known only at run time.
///
/// Observers and catch-all reducers receive actions in this form, and
/// ``Dispatcher/dispatch(_:)->()`` accepts it for untyped dispatch (deep links,
/// replaying a log). A payload whose type does not match a handler's is
/// rejected with ``FluxionError/payloadTypeMismatch(action:expected:actual:)``
/// before any store is touched.
///
/// An untyped payload matches a handler when it casts to the handler's
/// payload type, as `as?` would: an instance of a subclass reaches a handler
/// of its superclass, and a value reaches a handler of its `Optional`. A typed
/// ``Dispatcher/dispatch(_:payload:error:)`` needs no cast: its ``ActionName``
/// fixes the very type, so it matches only handlers declared with that type.
public struct AnyAction: Sendable, CustomStringConvertible {
    /// The action's name.
    public let name: String

    /// The value the action carries; `()` for an action without a payload.
    public let payload: any Sendable

    /// The error the action carries, if any.
    public let error: (any Error)?

    /// Creates an untyped action.
    ///
    /// - Parameters:
    ///   - name: The raw action name.
    ///   - payload: The value to carry; `()` when omitted.
    ///   - error: The error to carry, if any.
    public init(name: String, payload: any Sendable = (), error: (any Error)? = nil) {
        self.name = name
        self.payload = payload
        self.error = error
    }

    /// Erases the payload type of a typed action.
    public init<Payload>(_ action: Action<Payload>) {
        self.init(name: action.name.rawValue, payload: action.payload, error: action.error)
    }

    /// The action of the first change an observer hears when it asks for the current state.
    ///
    /// See ``Store/observe(owner:on:sendingCurrentState:_:)``; ``StoreChange/isCurrentState`` tells it apart.
    public static let currentState = AnyAction(name: "Fluxion.currentState")

    /// The name of the action of the one change a store's observers hear for a batch.
    ///
    /// Its payload is the batch's actions, an `[AnyAction]`, in order; see ``Dispatcher/batch(_:)``.
    public static let batchName = "Fluxion.batch"

    /// The name of the built-in action of a batch's inline mutation; its payload is a ``StoreMutation``.
    ///
    /// See ``DispatchBatch/mutate(_:_:)``.
    public static let mutationName = "Fluxion.mutate"

    /// The name of the action of the changes a ``Journal`` makes when it moves the stores in time,
    /// or when a replay sets them to recorded states.
    ///
    /// Its payload is the inline mutations that set the states, an `[AnyAction]`; no handler runs.
    public static let travelName = "Fluxion.travel"

    /// The payload as the given type, or `nil` when it has another type.
    ///
    /// ```swift
    /// if let amount = action.payload(as: Int.self) { … }
    /// ```
    public func payload<Payload>(as type: Payload.Type) -> Payload? {
        cast(payload, to: type)
    }

    /// The name, the payload and the error, for logs, with an optional payload printed as its value:
    /// `loaded(["tea"])`, not `loaded(Optional(["tea"]))`, and `loaded(nil)`; an action without a payload
    /// (`Void`) as its name alone: `refresh`, not `refresh(())`.
    public var description: String {
        var text = payload is Void ? name : "\(name)(\(plainDescription(of: payload)))"
        if let error { text += " error: \(plainDescription(of: error))" }
        return text
    }
}

/// `payload as? Payload`, except that a `nil` of another `Optional` type is not a `Payload`.
///
/// Swift lets any `nil` cast to any `Optional` type; an untyped action must
/// not reach a handler of `Int?` with a `String?` payload, even a `nil` one.
@usableFromInline
func cast<Payload>(_ payload: any Sendable, to type: Payload.Type) -> Payload? {
    guard let value = payload as? Payload else { return nil }
    if ObjectIdentifier(Swift.type(of: payload)) != ObjectIdentifier(Payload.self),
        let optional = payload as? any OptionalPayload, optional.isNone
    {
        return nil
    }
    return value
}

private protocol OptionalPayload {
    var isNone: Bool { get }
}

extension Optional: OptionalPayload {
    fileprivate var isNone: Bool { self == nil }
}
