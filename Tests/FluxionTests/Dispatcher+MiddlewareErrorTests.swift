import Fluxion
import Testing

extension ActionName where Payload == Int {
    fileprivate static var add: Self { "middlewareAdd" }
    fileprivate static var follow: Self { "middlewareFollow" }
}

@Suite struct DispatcherMiddlewareErrorTests {
    @Test func aThrowingMiddlewareReachesTheCallerAndLeavesTheStoresUntouched() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        let observed = LockedBox(0)
        let token = store.observe { _ in observed.withValue { $0 += 1 } }
        dispatcher.addMiddleware(ClosureMiddleware { _, _ in throw TestError("refused") })

        #expect(throws: TestError("refused")) { try dispatcher.dispatch(.add, payload: 1) }

        #expect(store.state == [])
        #expect(log.values == [])
        #expect(observed.value == 0)
        #expect(!dispatcher.isDispatching)
        token.cancel()
    }

    @Test func aHandlersErrorReachesTheMiddlewareAsAThrowFromNext() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try dispatcher.register(MiddlewareLogStore.self) { MiddlewareLogStore(log: log) }
        try dispatcher.register(MiddlewareSumStore.self)
        let sum = try dispatcher.store(MiddlewareSumStore.self)
        let logStore = try dispatcher.store(MiddlewareLogStore.self)
        let caught = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                do {
                    return try next(action)
                } catch {
                    caught.append("\(action.name): \(error)")
                    throw error
                }
            })

        #expect(throws: TestError("sum")) { try dispatcher.dispatch(.bothFailing, payload: 3) }

        #expect(caught.values == ["middlewareBothFailing: TestError(sum)"])
        #expect(logStore.state == [], "the store whose handler returned is rolled back with the action")
        #expect(sum.state == 0, "the store whose handler threw keeps its previous state")
    }

    @Test func aTransformedPayloadOfTheWrongTypeIsAMismatch() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in try next(AnyAction(name: action.name, payload: "one")) })

        #expect(
            throws: FluxionError.payloadTypeMismatch(action: "middlewareAdd", expected: "Int", actual: "String")
        ) {
            try dispatcher.dispatch(.add, payload: 1)
        }
        #expect(store.state == [])
    }

    @Test func aMiddlewareErrorOnAQueuedActionGoesToOnQueuedError() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        let queuedErrors = Recorder<String>()
        dispatcher.onQueuedError = { action, error in queuedErrors.append("\(action.name): \(error)") }
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                if action.name == ActionName<Int>.follow.rawValue { throw TestError("no follow") }
                return try next(action)
            })

        try dispatcher.dispatch(.chain, payload: 1)

        #expect(queuedErrors.values == ["middlewareFollow: TestError(no follow)"])
        #expect(store.state == [1])
    }
}
