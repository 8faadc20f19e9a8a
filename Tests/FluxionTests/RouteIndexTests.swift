import Fluxion
import Testing

extension ActionName where Payload == Int {
    fileprivate static var sharedNumber: Self { "indexShared" }
}

extension ActionName where Payload == String {
    fileprivate static var sharedText: Self { "indexShared" }
}

/// Handles `"indexShared"` with an `Int` payload.
private final class IndexNumberStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(.sharedNumber) { state, action in state.add(action.payload) }
    }
}

/// Handles `"indexShared"` with a `String` payload: it cannot join a dispatcher with `IndexNumberStore`.
private final class IndexTextStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable().on(.sharedText) { state, action in state.append(action.payload) }
    }
}

/// Handles `"indexShared"` with an `Int` payload too, and every other name with its catch-all.
private final class IndexAlsoNumberStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // Store's lock
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable()
            .on(.sharedNumber) { state, action in state.add(action.payload * 10) }
            .otherwise { state, _ in state.add(0) }
    }
}

// Two payload types that share a name: messages must qualify them.
private enum Inbox { struct Message: Sendable {} }
private enum Outbox { struct Message: Sendable {} }

private final class InboxStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(ActionName<Inbox.Message>("indexMessage")) { state, _ in state += 1 }
    }
}

private final class OutboxStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(ActionName<Outbox.Message>("indexMessage")) { state, _ in state += 1 }
    }
}

@Suite struct RouteIndexTests {
    @Test func aSecondStoreDeclaringANameWithAnotherPayloadTypeIsRefusedAtRegistration() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(IndexNumberStore.self)

        let conflict = FluxionError.conflictingPayloadTypes(
            action: "indexShared", store: "IndexTextStore", payload: "String", otherStore: "IndexNumberStore",
            otherPayload: "Int")
        #expect(throws: conflict) { try dispatcher.register(IndexTextStore.self) }
        #expect(
            conflict.description
                == "Store IndexTextStore declares action 'indexShared' with payload type String, but IndexNumberStore declares it with Int; one name needs one payload type."
        )
        #expect(!dispatcher.isRegistered(IndexTextStore.self))

        // The first store keeps working, typed and untyped.
        try dispatcher.dispatch(.sharedNumber, payload: 2)
        #expect(throws: FluxionError.payloadTypeMismatch(action: "indexShared", expected: "Int", actual: "String")) {
            try dispatcher.dispatch(AnyAction(name: "indexShared", payload: "two"))
        }
        #expect(try dispatcher.store(IndexNumberStore.self).state.total == 2)
    }

    @Test func storesThatAgreeOnThePayloadTypeShareAName() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(IndexNumberStore.self)
        try dispatcher.register(IndexAlsoNumberStore.self)

        try dispatcher.dispatch(.sharedNumber, payload: 2)

        #expect(try dispatcher.store(IndexNumberStore.self).state.total == 2)
        #expect(try dispatcher.store(IndexAlsoNumberStore.self).state.total == 20)
    }

    @Test func unregisteringFreesTheNameForAnotherPayloadType() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(IndexNumberStore.self)
        dispatcher.unregister(IndexNumberStore.self)

        try dispatcher.register(IndexTextStore.self)
        try dispatcher.dispatch(.sharedText, payload: "one")

        #expect(try dispatcher.store(IndexTextStore.self).state == ["one"])
    }

    @Test func typesOfOneNameInTwoPlacesAreQualifiedInTheMessage() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(InboxStore.self)

        let error = #expect(throws: FluxionError.self) { try dispatcher.register(OutboxStore.self) }

        let message = try #require(error).description
        #expect(message.contains("Outbox.Message"), "\(message)")
        #expect(message.contains("Inbox.Message"), "\(message)")
    }
}
