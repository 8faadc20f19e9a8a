import Fluxion
import FluxionTesting
import Testing

extension ActionName where Payload == Void {
    static var reset: Self { "testingReset" }
    static var waitForLog: Self { "testingWaitForLog" }
    static var refuse: Self { "testingRefuse" }
}

/// A store with closure and method handlers, one that waits for another store, one that throws after a change.
final class ReducedStore: Store<Counter>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Counter()) }

    override class var handlers: HandlerTable<Counter> {
        HandlerTable()
            .on(.add) { state, action in state.count += action.payload }
            .route(.reset, to: ReducedStore.reset)
            .route(.waitForLog, to: ReducedStore.readLog)
            .on(.refuse) { state, _ in
                state.count = -1
                throw TestingError.refused
            }
    }

    func reset(_ state: inout Counter, _ action: Action<Void>) throws {
        state = Counter(count: 0, label: "reset")
    }

    func readLog(_ state: inout Counter, _ action: Action<Void>) throws {
        state.label = "\(try waitFor(LogStore.self).state.lines.count)"
    }
}

/// A Redux-style store: one catch-all reducer.
final class CatchAllStore: Store<Log>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Log()) }

    override class var handlers: HandlerTable<Log> {
        HandlerTable().otherwise { state, action in state.lines.append(action.name) }
    }
}

enum TestingError: Error { case refused }

@Suite struct StoreReducerTests {
    @Test func aTypedActionRunsItsHandlerOnThePlainState() throws {
        let reducer = StoreReducer(ReducedStore())
        var state = Counter(count: 1)

        let handled = try reducer.reduce(&state, .add, payload: 2)

        #expect(handled)
        #expect(state == Counter(count: 3))
    }

    @Test func aMethodHandlerRunsOnTheStoreGiven() throws {
        let reducer = StoreReducer(ReducedStore())
        var state = Counter(count: 9)

        try reducer.reduce(&state, .reset)

        #expect(state == Counter(count: 0, label: "reset"))
    }

    @Test func anUntypedActionOfAnotherPayloadTypeIsRefusedAndChangesNothing() throws {
        let reducer = StoreReducer(ReducedStore())
        var state = Counter(count: 1)

        #expect(throws: FluxionError.payloadTypeMismatch(action: "testingAdd", expected: "Int", actual: "String")) {
            try reducer.reduce(&state, AnyAction(name: "testingAdd", payload: "two"))
        }
        #expect(state == Counter(count: 1))
    }

    @Test func aThrowingHandlerLeavesTheStateAsItWas() throws {
        let reducer = StoreReducer(ReducedStore())
        var state = Counter(count: 1)

        #expect(throws: TestingError.refused) { try reducer.reduce(&state, .refuse) }
        #expect(state == Counter(count: 1))
    }

    @Test func aNameNoHandlerTakesChangesNothing() throws {
        let reducer = StoreReducer(ReducedStore())
        var state = Counter(count: 1)

        let handled = try reducer.reduce(&state, .label, payload: "unknown to ReducedStore")

        #expect(!handled)
        #expect(state == Counter(count: 1))
    }

    @Test func theCatchAllReducerTakesEveryName() throws {
        let reducer = StoreReducer(CatchAllStore())
        var state = Log()

        try reducer.reduce(&state, .add, payload: 1)
        try reducer.reduce(&state, .reset)

        #expect(state.lines == ["testingAdd", "testingReset"])
    }

    @Test func aHandlerThatWaitsForAnotherStoreNeedsADispatcher() throws {
        let reducer = StoreReducer(ReducedStore())
        var state = Counter()

        #expect(throws: FluxionError.waitForOutsideDispatch("LogStore")) { try reducer.reduce(&state, .waitForLog) }
    }
}
