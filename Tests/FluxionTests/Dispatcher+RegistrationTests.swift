import Fluxion
import Testing

extension ActionName where Payload == Int {
    fileprivate static var add: Self { "dispatcherAdd" }
    fileprivate static var unhandledNumber: Self { "dispatcherUnhandledNumber" }
}

extension ActionName where Payload == Void {
    fileprivate static var nobody: Self { "dispatcherNobody" }
}

/// Never dispatched to in these tests; used for registration outcomes.
final class DispatcherSoloStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.add) { state, action in state += action.payload }
    }
}

@Suite struct DispatcherRegistrationTests {
    // MARK: Registration

    @Test func registeringATypeTwiceThrows() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(DispatcherSoloStore.self)

        #expect(throws: FluxionError.storeAlreadyRegistered("DispatcherSoloStore")) {
            try dispatcher.register(DispatcherSoloStore.self)
        }
        #expect(throws: FluxionError.storeAlreadyRegistered("DispatcherSoloStore")) {
            try dispatcher.register(DispatcherSoloStore.self) { DispatcherSoloStore() }
        }
        // The first registration still works, once.
        try dispatcher.dispatch(.add, payload: 3)
        #expect(try dispatcher.store(DispatcherSoloStore.self).state == 3)
    }

    @Test func askingForAnUnregisteredStoreThrows() throws {
        let dispatcher = Dispatcher()

        #expect(!dispatcher.isRegistered(DispatcherSoloStore.self))
        #expect(throws: FluxionError.storeNotRegistered("DispatcherSoloStore")) {
            try dispatcher.store(DispatcherSoloStore.self)
        }
    }

    @Test func unregisterStopsDelivery() throws {
        let deadLetters = Recorder<String>()
        let dispatcher = Dispatcher()
        dispatcher.onDeadLetter = { deadLetters.append($0.name) }
        try dispatcher.register(DispatcherSoloStore.self)
        let solo = try dispatcher.store(DispatcherSoloStore.self)
        try dispatcher.dispatch(.add, payload: 1)

        #expect(dispatcher.unregister(DispatcherSoloStore.self))
        try dispatcher.dispatch(.add, payload: 10)

        #expect(solo.state == 1)
        #expect(!dispatcher.isRegistered(DispatcherSoloStore.self))
        #expect(!dispatcher.unregister(DispatcherSoloStore.self))
        #expect(deadLetters.values == ["dispatcherAdd"])
        #expect(throws: FluxionError.storeNotRegistered("DispatcherSoloStore")) {
            try dispatcher.store(DispatcherSoloStore.self)
        }
    }

    @Test func unregisteringOneStoreKeepsTheOthersOfTheSameName() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try dispatcher.register(DispatcherFirstStore.self) { DispatcherFirstStore(log: log) }
        try dispatcher.register(DispatcherSecondStore.self) { DispatcherSecondStore(log: log) }

        dispatcher.unregister(DispatcherFirstStore.self)
        try dispatcher.dispatch(.add, payload: 1)

        #expect(log.values == ["second:1"])
    }

    // MARK: Dead letters

    @Test func aNameNoStoreHandlesIsANoOpReportedOnceToOnDeadLetter() throws {
        let deadLetters = Recorder<String>()
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        dispatcher.onDeadLetter = { deadLetters.append($0.name) }
        try dispatcher.register(DispatcherFirstStore.self) { DispatcherFirstStore(log: log) }

        try dispatcher.dispatch(.nobody)

        #expect(deadLetters.values == ["dispatcherNobody"])
        #expect(log.values.isEmpty)
        #expect(try dispatcher.store(DispatcherFirstStore.self).state == Tally())

        try dispatcher.dispatch(.unhandledNumber, payload: 1)
        #expect(deadLetters.values == ["dispatcherNobody", "dispatcherUnhandledNumber"])
    }

    @Test func aNameNoStoreHandlesIsANoOpWithoutAHook() throws {
        let dispatcher = Dispatcher()
        #expect(dispatcher.onDeadLetter == nil)

        try dispatcher.dispatch(.nobody)
        try dispatcher.dispatch(AnyAction(name: "dispatcherNobodyAtAll", payload: "text"))

        #expect(!dispatcher.isDispatching)
    }

    @Test func handledNamesDoNotReachOnDeadLetter() throws {
        let deadLetters = Recorder<String>()
        let dispatcher = Dispatcher()
        dispatcher.onDeadLetter = { deadLetters.append($0.name) }
        try dispatcher.register(DispatcherSturdyStore.self)

        try dispatcher.dispatch(.add, payload: 1)

        #expect(deadLetters.values.isEmpty)
    }

    @Test func independentDispatchersDoNotShareStores() throws {
        let first = Dispatcher()
        let second = Dispatcher()
        try first.register(DispatcherSturdyStore.self)
        try second.register(DispatcherSturdyStore.self)

        try first.dispatch(.add, payload: 2)

        #expect(try first.store(DispatcherSturdyStore.self).state.total == 2)
        #expect(try second.store(DispatcherSturdyStore.self).state.total == 0)
        #expect(try first.store(DispatcherSturdyStore.self) !== second.store(DispatcherSturdyStore.self))
        #expect(try first.store(DispatcherSturdyStore.self).dispatcher === first)
    }
}
