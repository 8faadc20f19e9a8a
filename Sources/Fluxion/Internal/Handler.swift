/// One entry of a handler table, with the store's state type and the payload type erased.
///
/// The closures are made where the table is declared, in the app's module, so
/// they are specialised for the store's state and the payload type; the
/// dispatcher only moves the payload to them.
@usableFromInline
final class Handler: Sendable {
    /// The payload type the handler takes; `nil` for a catch-all reducer, which takes any.
    let payloadType: ObjectIdentifier?
    /// The payload type's name, for error messages.
    let expectedPayload: String
    /// A `TypedHandler<Payload>` for the payload type `payloadType`; `nil` for a catch-all.
    let typed: (AnyObject & Sendable)?
    /// Whether the handler can take a payload whose type is known only at run time.
    let accepts: @Sendable (any Sendable) -> Bool
    /// Runs the handler for an action whose payload type is known only at run time.
    let untyped: @Sendable (AnyObject, AnyAction) -> HandlerOutcome
    /// Tells the store's observers about the change its last handler made.
    let deliver: @Sendable (AnyObject, AnyAction) -> Void

    @usableFromInline
    init(
        payloadType: ObjectIdentifier?,
        expectedPayload: String,
        typed: (AnyObject & Sendable)?,
        accepts: @escaping @Sendable (any Sendable) -> Bool,
        untyped: @escaping @Sendable (AnyObject, AnyAction) -> HandlerOutcome,
        deliver: @escaping @Sendable (AnyObject, AnyAction) -> Void
    ) {
        self.payloadType = payloadType
        self.expectedPayload = expectedPayload
        self.typed = typed
        self.accepts = accepts
        self.untyped = untyped
        self.deliver = deliver
    }

    /// Runs the handler on `store` for a typed action: directly when it takes
    /// `Payload`, through its untyped body otherwise (a catch-all reducer).
    @inline(__always)
    func run<Payload: Sendable>(on store: AnyObject, name: String, payload: Payload, error: (any Error)?)
        -> HandlerOutcome
    {
        if payloadType == ObjectIdentifier(Payload.self), let typed {
            // NB: `typed` is a `TypedHandler<Payload>` exactly when the payload types match.
            return unsafeDowncast(typed, to: TypedHandler<Payload>.self).run(store, name, payload, error)
        }
        return untyped(store, AnyAction(name: name, payload: payload, error: error))
    }
}

/// A handler's body for one payload type: takes the store, the action's name, payload and error.
@usableFromInline
final class TypedHandler<Payload: Sendable>: Sendable {
    let run: @Sendable (AnyObject, String, Payload, (any Error)?) -> HandlerOutcome

    @usableFromInline
    init(_ run: @escaping @Sendable (AnyObject, String, Payload, (any Error)?) -> HandlerOutcome) {
        self.run = run
    }
}

/// What running one store's handler did.
@usableFromInline
struct HandlerOutcome {
    /// The error the handler threw; the store's state was then left as it was.
    let error: (any Error)?
    /// Whether the store has observers waiting for the change.
    let isObserved: Bool

    @usableFromInline
    init(error: (any Error)?, isObserved: Bool) {
        self.error = error
        self.isObserved = isObserved
    }
}
