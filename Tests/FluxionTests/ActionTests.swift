import Fluxion
import Testing

extension ActionName where Payload == Int? {
    fileprivate static var loaded: Self { "actionLoaded" }
}

extension ActionName where Payload == Void {
    fileprivate static var ping: Self { "actionPing" }
}

struct LoadState: Sendable, Equatable {
    var value: Int?
    var failure: String?
    var pings = 0
}

/// Takes a loaded value, or the error the action carries instead.
final class ActionLoadStore: Store<LoadState>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: LoadState()) }

    override class var handlers: HandlerTable<LoadState> {
        HandlerTable()
            .on(.loaded) { state, action in
                if let error = action.error {
                    state.failure = "\(error)"
                } else {
                    state.value = action.payload
                    state.failure = nil
                }
            }
            .on(.ping) { state, action in
                state.pings += action.name == .ping ? 1 : 100
            }
    }
}

@Suite struct ActionTests {
    @Test func anActionKeepsItsNamePayloadAndError() {
        let action = Action(.loaded, payload: 3, error: TestError("carried"))

        #expect(action.name == .loaded)
        #expect(action.name.rawValue == "actionLoaded")
        #expect(action.payload == 3)
        #expect((action.error as? TestError) == TestError("carried"))
    }

    @Test func anActionNameIsItsString() {
        let name: ActionName<Int> = "actionSomething"

        #expect(name.rawValue == "actionSomething")
        #expect(name.description == "actionSomething")
        #expect(name == ActionName<Int>("actionSomething"))
    }

    @Test func aVoidActionNeedsNoPayload() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(ActionLoadStore.self)

        try dispatcher.dispatch(.ping)
        try dispatcher.dispatch(.ping, error: nil)

        #expect(try dispatcher.store(ActionLoadStore.self).state.pings == 2)
        #expect(Action(.ping).error == nil)
    }

    @Test func anActionCanCarryAnErrorToTheHandlerAndTheObservers() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(ActionLoadStore.self)
        let store = try dispatcher.store(ActionLoadStore.self)
        let carried = Recorder<String>()
        let token = store.observe { change in
            carried.append(change.action.error.map { "\($0)" } ?? "none")
        }

        try dispatcher.dispatch(.loaded, payload: 5)
        try dispatcher.dispatch(.loaded, payload: nil, error: TestError("offline"))

        #expect(store.state == LoadState(value: 5, failure: "TestError(offline)"))
        // The carried error is not a handler error: the action was handled, and is a change.
        #expect(carried.values == ["none", "TestError(offline)"])
        token.cancel()
    }

    @Test func anErrorCarriedByAVoidActionReachesTheObservers() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(ActionLoadStore.self)
        let carried = Recorder<String>()
        let token = try dispatcher.store(ActionLoadStore.self).observe { change in
            carried.append(change.action.error.map { "\($0)" } ?? "none")
        }

        try dispatcher.dispatch(.ping, error: TestError("late"))

        #expect(carried.values == ["TestError(late)"])
        token.cancel()
    }
}
