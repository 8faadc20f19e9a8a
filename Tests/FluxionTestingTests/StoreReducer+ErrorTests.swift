import Fluxion
import FluxionTesting
import Testing

extension ActionName where Payload == String {
    fileprivate static var load: Self { "reducerErrorLoad" }
}

extension ActionName where Payload == Void {
    fileprivate static var refresh: Self { "reducerErrorRefresh" }
}

private struct LoadFailed: Error, CustomStringConvertible {
    var description: String { "offline" }
}

/// Notes each action's payload and error, as a handler of a failed request would.
private final class LoadingStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable()
            .on(.load) { state, action in state.append("\(action.payload): \(action.error.map { "\($0)" } ?? "ok")") }
            .on(.refresh) { state, action in state.append("refresh: \(action.error.map { "\($0)" } ?? "ok")") }
    }
}

@Suite struct StoreReducerErrorTests {
    @Test func aTypedActionsErrorReachesTheHandler() throws {
        let reducer = StoreReducer(LoadingStore())
        var state: [String] = []

        try reducer.reduce(&state, .load, payload: "todos", error: LoadFailed())
        try reducer.reduce(&state, .load, payload: "notes")

        #expect(state == ["todos: offline", "notes: ok"])
    }

    @Test func anActionWithoutAPayloadHasItsErrorReachTheHandler() throws {
        let reducer = StoreReducer(LoadingStore())
        var state: [String] = []

        try reducer.reduce(&state, .refresh, error: LoadFailed())
        try reducer.reduce(&state, .refresh)

        #expect(state == ["refresh: offline", "refresh: ok"])
    }
}
