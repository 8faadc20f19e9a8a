/// What the name index needs of a handler, with its state and payload types erased.
protocol RouteHandler: AnyObject, Sendable {
    /// The payload type the handler takes; `nil` for a catch-all reducer, which takes any.
    var payloadType: ObjectIdentifier? { get }

    /// The payload type's name, for error messages.
    var expectedPayload: String { get }

    /// Whether the handler can take this payload.
    func accepts(_ payload: any Sendable) -> Bool
}

/// One entry of a ``HandlerTable``: a typed body for typed dispatch, and an
/// untyped one for actions whose payload type is known only at run time.
final class Handler<State: Sendable>: RouteHandler {
    let payloadType: ObjectIdentifier?
    let expectedPayload: String
    /// A `TypedBody<State, Payload>` for the payload type `payloadType`; `nil` for a catch-all.
    let typedBody: (AnyObject & Sendable)?
    let untypedBody: @Sendable (Store<State>, inout State, AnyAction) throws -> Void
    private let acceptsPayload: @Sendable (any Sendable) -> Bool

    /// A handler for one payload type.
    init<Payload>(_ body: @escaping @Sendable (Store<State>, inout State, Action<Payload>) throws -> Void) {
        payloadType = ObjectIdentifier(Payload.self)
        expectedPayload = typeName(Payload.self)
        typedBody = TypedBody(body)
        acceptsPayload = { $0 is Payload }
        untypedBody = { store, state, action in
            guard let payload = action.payload as? Payload else {
                throw FluxionError.payloadTypeMismatch(
                    action: action.name,
                    expected: typeName(Payload.self),
                    actual: typeName(type(of: action.payload))
                )
            }
            try body(store, &state, Action(ActionName(action.name), payload: payload, error: action.error))
        }
    }

    /// A catch-all reducer, taking any payload.
    init(catchAll body: @escaping @Sendable (inout State, AnyAction) throws -> Void) {
        payloadType = nil
        expectedPayload = "Any"
        typedBody = nil
        acceptsPayload = { _ in true }
        untypedBody = { _, state, action in try body(&state, action) }
    }

    func accepts(_ payload: any Sendable) -> Bool {
        acceptsPayload(payload)
    }

    /// Runs the handler for a typed action: directly when it takes `Payload`,
    /// through the untyped body otherwise (a catch-all).
    @inline(__always)
    func run<Payload>(
        _ store: Store<State>,
        _ state: inout State,
        _ action: Action<Payload>,
        erased: @autoclosure () -> AnyAction
    ) throws {
        if payloadType == ObjectIdentifier(Payload.self), let typedBody {
            // NB: `typedBody` is a `TypedBody<State, Payload>` exactly when the payload types match.
            try unsafeDowncast(typedBody, to: TypedBody<State, Payload>.self).body(store, &state, action)
        } else {
            try untypedBody(store, &state, erased())
        }
    }
}

/// A handler body for one payload type.
final class TypedBody<State: Sendable, Payload: Sendable>: Sendable {
    let body: @Sendable (Store<State>, inout State, Action<Payload>) throws -> Void

    init(_ body: @escaping @Sendable (Store<State>, inout State, Action<Payload>) throws -> Void) {
        self.body = body
    }
}
