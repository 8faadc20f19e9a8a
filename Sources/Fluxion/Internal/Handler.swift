/// A handler with its payload type erased, as the dispatcher's name index holds it.
protocol ErasedHandler: AnyObject, Sendable {
    /// The payload type the handler declared, for error messages.
    var expectedPayload: String { get }

    /// Whether the handler can take this payload.
    func accepts(_ payload: any Sendable) -> Bool
}

/// One entry of a ``HandlerTable``.
final class Handler<State: Sendable>: ErasedHandler {
    let expectedPayload: String
    private let acceptsPayload: @Sendable (any Sendable) -> Bool
    let run: @Sendable (Store<State>, inout State, AnyAction) throws -> Void

    init(
        expectedPayload: String,
        accepts: @escaping @Sendable (any Sendable) -> Bool,
        run: @escaping @Sendable (Store<State>, inout State, AnyAction) throws -> Void
    ) {
        self.expectedPayload = expectedPayload
        self.acceptsPayload = accepts
        self.run = run
    }

    func accepts(_ payload: any Sendable) -> Bool {
        acceptsPayload(payload)
    }
}
