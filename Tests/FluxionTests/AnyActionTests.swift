import Fluxion
import Testing

extension ActionName where Payload == Int {
    fileprivate static var amount: Self { "anyAmount" }
    fileprivate static var sharedNumber: Self { "anyShared" }
}

extension ActionName where Payload == Int? {
    fileprivate static var maybe: Self { "anyMaybe" }
}

extension ActionName where Payload == Void {
    fileprivate static var clear: Self { "anyClear" }
}

/// Handles `.amount` and `.clear`, and `"anyShared"` with an `Int` payload.
final class AnyNumberStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable()
            .on(.amount) { state, action in state.add(action.payload) }
            .on(.sharedNumber) { state, action in state.add(action.payload) }
            .on(.clear) { state, _ in state = Tally() }
            .on(.maybe) { state, action in state.add(action.payload ?? -1) }
    }
}

@Suite struct AnyActionTests {
    // MARK: The value

    @Test func payloadAsReturnsThePayloadOnlyForItsType() {
        let action = AnyAction(name: "anyAmount", payload: 3)

        #expect(action.payload(as: Int.self) == 3)
        #expect(action.payload(as: String.self) == nil)
        #expect(action.error == nil)
    }

    @Test func anActionWithoutAPayloadCarriesVoid() {
        let action = AnyAction(name: "anyClear")

        #expect(action.payload(as: Void.self) != nil)
        #expect(action.payload(as: Int.self) == nil)
    }

    @Test func erasingATypedActionKeepsNamePayloadAndError() {
        let action = AnyAction(Action(.amount, payload: 4, error: TestError("carried")))

        #expect(action.name == "anyAmount")
        #expect(action.payload(as: Int.self) == 4)
        #expect((action.error as? TestError) == TestError("carried"))
    }

    @Test func theDescriptionNamesTheActionPayloadAndError() {
        #expect(AnyAction(name: "anyAmount", payload: 4).description == "anyAmount(4)")
        let failed = AnyAction(name: "anyAmount", payload: 4, error: TestError("boom")).description
        #expect(failed.contains("anyAmount"))
        #expect(failed.contains("4"))
        #expect(failed.contains("TestError(boom)"))
    }

    // MARK: Untyped dispatch

    @Test func untypedDispatchWithTheRightTypeReachesTheHandler() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(AnyNumberStore.self)

        try dispatcher.dispatch(AnyAction(name: "anyAmount", payload: 6))
        try dispatcher.dispatch(AnyAction(name: "anyAmount", payload: 1))

        #expect(try dispatcher.store(AnyNumberStore.self).state == Tally(total: 7, calls: 2, payloads: [6, 1]))
    }

    @Test func untypedDispatchWithoutAPayloadReachesAVoidHandler() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(AnyNumberStore.self)
        try dispatcher.dispatch(.amount, payload: 6)

        try dispatcher.dispatch(AnyAction(name: "anyClear"))

        #expect(try dispatcher.store(AnyNumberStore.self).state == Tally())
    }

    @Test func aWrongPayloadTypeThrowsNamingTheActionAndBothTypesAndTouchesNoStore() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(AnyNumberStore.self)
        let store = try dispatcher.store(AnyNumberStore.self)
        try dispatcher.dispatch(.amount, payload: 2)
        let calls = Recorder<String>()
        let token = store.observe { change in calls.append(change.action.name) }

        let error = #expect(throws: FluxionError.self) {
            try dispatcher.dispatch(AnyAction(name: "anyAmount", payload: "two"))
        }

        #expect(error == .payloadTypeMismatch(action: "anyAmount", expected: "Int", actual: "String"))
        let description = try #require(error).description
        #expect(description.contains("anyAmount"))
        #expect(description.contains("Int"))
        #expect(description.contains("String"))
        #expect(store.state == Tally(total: 2, calls: 1, payloads: [2]))
        #expect(calls.values.isEmpty)
        #expect(!dispatcher.isDispatching)
        token.cancel()
    }

    @Test func anOptionalHandlerTakesItsOwnOptionalAndItsWrappedType() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(AnyNumberStore.self)

        try dispatcher.dispatch(AnyAction(name: "anyMaybe", payload: 4))
        try dispatcher.dispatch(AnyAction(name: "anyMaybe", payload: Int?.none))
        try dispatcher.dispatch(.maybe, payload: 5)

        #expect(try dispatcher.store(AnyNumberStore.self).state.payloads == [4, -1, 5])
    }

    @Test func aNilOfAnotherOptionalTypeIsAMismatch() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(AnyNumberStore.self)

        let mismatch = FluxionError.payloadTypeMismatch(
            action: "anyMaybe", expected: "Optional<Int>", actual: "Optional<String>")
        #expect(throws: mismatch) {
            try dispatcher.dispatch(AnyAction(name: "anyMaybe", payload: String?.none))
        }
        #expect(try dispatcher.store(AnyNumberStore.self).state == Tally())
    }

    @Test func aPayloadForAVoidHandlerIsAMismatch() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(AnyNumberStore.self)
        try dispatcher.dispatch(.amount, payload: 2)

        #expect(throws: FluxionError.payloadTypeMismatch(action: "anyClear", expected: "()", actual: "Int")) {
            try dispatcher.dispatch(AnyAction(name: "anyClear", payload: 1))
        }
        #expect(try dispatcher.store(AnyNumberStore.self).state.total == 2)
    }
}
