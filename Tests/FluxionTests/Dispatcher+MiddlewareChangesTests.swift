import Fluxion
import Testing

extension ActionName where Payload == Int {
    fileprivate static var add: Self { "middlewareAdd" }
}

@Suite struct DispatcherMiddlewareChangesTests {
    @Test func aMiddlewareReadsStoreStateBeforeAndAfterNext() throws {
        let log = Recorder<String>()
        let (dispatcher, _) = try makeLogStore(log: log)
        let reads = Recorder<[Int]>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                reads.append(try next.dispatcher.store(MiddlewareLogStore.self).state)
                let changes = try next(action)
                reads.append(try next.dispatcher.store(MiddlewareLogStore.self).state)
                return changes
            })

        try dispatcher.dispatch(.add, payload: 5)
        try dispatcher.dispatch(.add, payload: 6)

        #expect(reads.values == [[], [5], [5], [5, 6]])
    }

    @Test func nextReturnsNoChangesUnlessAMiddlewareOfTheChainObservesThem() throws {
        let log = Recorder<String>()
        let (dispatcher, _) = try makeLogStore(log: log)
        let counts = Recorder<Int>()
        let recordingCount = ClosureMiddleware(observesChanges: false) { action, next in
            let changes = try next(action)
            counts.append(changes.count)
            return changes
        }
        dispatcher.addMiddleware(recordingCount)

        try dispatcher.dispatch(.add, payload: 1)
        let observing = dispatcher.addMiddleware(ClosureMiddleware { action, next in try next(action) })
        try dispatcher.dispatch(.add, payload: 2)
        dispatcher.removeMiddleware(observing)
        try dispatcher.dispatch(.add, payload: 3)

        #expect(counts.values == [0, 1, 0])
    }

    @Test func nextReturnsOneChangePerStoreThatHandledTheActionInRegistrationOrder() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try dispatcher.register(MiddlewareLogStore.self) { MiddlewareLogStore(log: log) }
        try dispatcher.register(MiddlewareBystanderStore.self)
        try dispatcher.register(MiddlewareSumStore.self)
        // Created in the opposite order to registration: the changes follow registration order.
        let sum = try dispatcher.store(MiddlewareSumStore.self)
        _ = try dispatcher.store(MiddlewareBystanderStore.self)
        let logStore = try dispatcher.store(MiddlewareLogStore.self)
        try dispatcher.dispatch(.both, payload: 2)
        let returned = LockedBox<[AnyStoreChange]>([])
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                let changes = try next(action)
                returned.value = changes
                return changes
            })

        try dispatcher.dispatch(.both, payload: 5)

        let changes = returned.value
        try #require(changes.count == 2)
        #expect(changes[0].store(as: MiddlewareLogStore.self) === logStore)
        #expect(changes[1].store(as: MiddlewareSumStore.self) === sum)
        let logChange = try #require(changes[0].change(as: [Int].self))
        let sumChange = try #require(changes[1].change(as: Int.self))
        #expect(logChange.oldState == [2])
        #expect(logChange.newState == [2, 5])
        #expect(sumChange.oldState == 2)
        #expect(sumChange.newState == 7)
        #expect(changes.map(\.action.name) == ["middlewareBoth", "middlewareBoth"])
        #expect(changes.map { $0.action.payload(as: Int.self) } == [5, 5])
        #expect(changes.allSatisfy { !$0.isCurrentState })
    }
}
