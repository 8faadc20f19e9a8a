import Fluxion
import Testing

extension ActionName where Payload == Int {
    fileprivate static var add: Self { "dispatcherAdd" }
}

extension ActionName where Payload == Void {
    fileprivate static var start: Self { "dispatcherStart" }
    fileprivate static var nestedA: Self { "dispatcherNestedA" }
    fileprivate static var nestedB: Self { "dispatcherNestedB" }
    fileprivate static var nestedC: Self { "dispatcherNestedC" }
    fileprivate static var relay: Self { "dispatcherRelay" }
    fileprivate static var fail: Self { "dispatcherFail" }
}

/// Dispatches from its handlers: `.start` dispatches `.nestedA` then `.nestedB`; `.nestedA` dispatches `.nestedC`.
final class DispatcherNestingStore: Store<[String]>, @unchecked Sendable {  // locked by Store
    let log: Recorder<String>

    init(log: Recorder<String>) {
        self.log = log
        super.init(initialState: [])
    }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable()
            .route(.start, to: DispatcherNestingStore.start)
            .route(.nestedA, to: DispatcherNestingStore.nestedA)
            .on(.nestedB) { state, _ in state.append("B") }
            .on(.nestedC) { state, _ in state.append("C") }
    }

    func start(_ state: inout [String], _ action: Action<Void>) throws {
        log.append("start")
        state.append("start")
        guard let dispatcher else { throw TestError("no dispatcher") }
        try dispatcher.dispatch(.nestedA)
        try dispatcher.dispatch(.nestedB)
        // Queued: neither ran yet, and this store's committed state is still the old one.
        log.append("start-end:\(self.state)")
    }

    func nestedA(_ state: inout [String], _ action: Action<Void>) throws {
        state.append("A")
        guard let dispatcher else { throw TestError("no dispatcher") }
        try dispatcher.dispatch(.nestedC)
    }
}

/// `.relay` dispatches `.fail`, then `.add` 1: both are queued.
final class DispatcherRelayStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().route(.relay, to: DispatcherRelayStore.relay)
    }

    func relay(_ state: inout Int, _ action: Action<Void>) throws {
        state += 1
        guard let dispatcher else { throw TestError("no dispatcher") }
        try dispatcher.dispatch(.fail)
        try dispatcher.dispatch(.add, payload: 1)
    }
}

/// Throws for `.fail`.
final class DispatcherFailingStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.fail) { state, _ in
            state += 1
            throw TestError("queued")
        }
    }
}

@Suite struct DispatcherTests {
    // MARK: Routing

    @Test func everyHandlerOfANameRunsOncePerDispatchWithThePayload() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try dispatcher.register(DispatcherFirstStore.self) { DispatcherFirstStore(log: log) }
        try dispatcher.register(DispatcherSecondStore.self) { DispatcherSecondStore(log: log) }
        try dispatcher.register(DispatcherThirdStore.self) { DispatcherThirdStore(log: log) }

        try dispatcher.dispatch(.add, payload: 5)
        try dispatcher.dispatch(.add, payload: 7)

        let expected = Tally(total: 12, calls: 2, payloads: [5, 7])
        #expect(try dispatcher.store(DispatcherFirstStore.self).state == expected)
        #expect(try dispatcher.store(DispatcherSecondStore.self).state == expected)
        #expect(try dispatcher.store(DispatcherThirdStore.self).state == expected)
        #expect(log.values.count == 6)
    }

    @Test func storesHandlingTheSameNameRunInRegistrationOrder() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try dispatcher.register(DispatcherThirdStore.self) { DispatcherThirdStore(log: log) }
        try dispatcher.register(DispatcherFirstStore.self) { DispatcherFirstStore(log: log) }
        try dispatcher.register(DispatcherSecondStore.self) { DispatcherSecondStore(log: log) }

        try dispatcher.dispatch(.add, payload: 1)
        try dispatcher.dispatch(.add, payload: 2)

        #expect(log.values == ["third:1", "first:1", "second:1", "third:2", "first:2", "second:2"])
    }

    @Test func registrationOrderSurvivesUnregisteringAndRegisteringAgain() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try dispatcher.register(DispatcherFirstStore.self) { DispatcherFirstStore(log: log) }
        try dispatcher.register(DispatcherSecondStore.self) { DispatcherSecondStore(log: log) }
        dispatcher.unregister(DispatcherFirstStore.self)
        try dispatcher.register(DispatcherFirstStore.self) { DispatcherFirstStore(log: log) }

        try dispatcher.dispatch(.add, payload: 1)

        #expect(log.values == ["second:1", "first:1"])
    }

    @Test func untypedDispatchWithTheRightPayloadTypeReachesTypedHandlers() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try dispatcher.register(DispatcherFirstStore.self) { DispatcherFirstStore(log: log) }

        try dispatcher.dispatch(AnyAction(name: "dispatcherAdd", payload: 4))

        #expect(try dispatcher.store(DispatcherFirstStore.self).state == Tally(total: 4, calls: 1, payloads: [4]))
        #expect(log.values == ["first:4"])
    }

    // MARK: Nested dispatch

    @Test func nestedDispatchIsQueuedAndRunsFIFOBeforeTheOuterDispatchReturns() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try dispatcher.register(DispatcherNestingStore.self) { DispatcherNestingStore(log: log) }

        try dispatcher.dispatch(.start)

        // The handler's own dispatches neither threw nor ran inside it.
        #expect(log.values == ["start", "start-end:[]"])
        // All queued actions ran, in order, before `dispatch` returned.
        #expect(try dispatcher.store(DispatcherNestingStore.self).state == ["start", "A", "B", "C"])
        #expect(!dispatcher.isDispatching)
    }

    @Test func isDispatchingIsTrueOnlyDuringADispatch() throws {
        let seen = Recorder<Bool>()
        let dispatcher = Dispatcher()
        try dispatcher.register(DispatcherSturdyStore.self)
        let token = try dispatcher.store(DispatcherSturdyStore.self).observe { [weak dispatcher] _ in
            seen.append(dispatcher?.isDispatching ?? false)
        }

        #expect(!dispatcher.isDispatching)
        try dispatcher.dispatch(.add, payload: 1)

        #expect(seen.values == [true])
        #expect(!dispatcher.isDispatching)
        token.cancel()
    }

    // MARK: Throwing handlers

    @Test func aThrowingHandlerRollsBackEveryStoreOfTheAction() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(DispatcherFragileStore.self)
        try dispatcher.register(DispatcherSturdyStore.self)
        let fragile = try dispatcher.store(DispatcherFragileStore.self)
        let sturdy = try dispatcher.store(DispatcherSturdyStore.self)

        #expect(throws: TestError("negative")) {
            try dispatcher.dispatch(.add, payload: -3)
        }

        // The throwing store is rolled back although it mutated before throwing…
        #expect(fragile.state == Tally())
        // …and so is the other store: the action is all-or-nothing…
        #expect(sturdy.state == Tally())
        #expect(!dispatcher.isDispatching)

        // …and the next dispatch works.
        try dispatcher.dispatch(.add, payload: 2)
        #expect(fragile.state == Tally(total: 2, calls: 1, payloads: [2]))
        #expect(sturdy.state == Tally(total: 2, calls: 1, payloads: [2]))
    }

    @Test func errorsOfQueuedActionsGoToOnQueuedErrorNotToObservers() throws {
        let queuedErrors = Recorder<String>()
        let changeErrors = Recorder<String>()
        let dispatcher = Dispatcher()
        dispatcher.onQueuedError = { action, error in queuedErrors.append("\(action.name): \(error)") }
        try dispatcher.register(DispatcherRelayStore.self)
        try dispatcher.register(DispatcherFailingStore.self)
        try dispatcher.register(DispatcherSturdyStore.self)
        let failing = try dispatcher.store(DispatcherFailingStore.self)
        let token = failing.observe { change in changeErrors.append(change.action.name) }

        // The outer action succeeded, so its dispatch does not throw.
        try dispatcher.dispatch(.relay)

        #expect(queuedErrors.values == ["dispatcherFail: TestError(queued)"])
        #expect(changeErrors.values.isEmpty)  // a rejected action is no change
        #expect(failing.state == 0)
        #expect(try dispatcher.store(DispatcherRelayStore.self).state == 1)
        // The action queued after the failing one still ran.
        #expect(try dispatcher.store(DispatcherSturdyStore.self).state.payloads == [1])
        token.cancel()
    }
}
