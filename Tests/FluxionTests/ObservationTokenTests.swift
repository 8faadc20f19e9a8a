import Fluxion
import Testing

extension ActionName where Payload == Int {
    fileprivate static var tick: Self { "tokenTick" }
}

/// Counts `.tick` payloads.
final class TokenCounterStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.tick) { state, action in state += action.payload }
    }
}

@Suite struct ObservationTokenTests {
    private func counter() throws -> (Dispatcher, TokenCounterStore) {
        let dispatcher = Dispatcher()
        try dispatcher.register(TokenCounterStore.self)
        return (dispatcher, try dispatcher.store(TokenCounterStore.self))
    }

    @Test func aKeptTokenKeepsTheObserverCalled() throws {
        let (dispatcher, store) = try counter()
        let calls = Recorder<Int>()
        let token = store.observe { change in calls.append(change.newState) }

        try dispatcher.dispatch(.tick, payload: 1)
        try dispatcher.dispatch(.tick, payload: 1)

        #expect(calls.values == [1, 2])
        #expect(!token.isCancelled)
        withExtendedLifetime(token) {}
    }

    @Test func cancelStopsTheObserver() throws {
        let (dispatcher, store) = try counter()
        let calls = Recorder<Int>()
        let token = store.observe { change in calls.append(change.newState) }
        try dispatcher.dispatch(.tick, payload: 1)

        token.cancel()
        try dispatcher.dispatch(.tick, payload: 1)

        #expect(token.isCancelled)
        #expect(calls.values == [1])
        #expect(store.state == 2)
    }

    @Test func cancellingTwiceIsHarmless() throws {
        let (dispatcher, store) = try counter()
        let calls = Recorder<Int>()
        let token = store.observe { change in calls.append(change.newState) }

        token.cancel()
        token.cancel()
        try dispatcher.dispatch(.tick, payload: 1)

        #expect(token.isCancelled)
        #expect(calls.values.isEmpty)
    }

    @Test func releasingTheTokenStopsTheObserverAndFreesIt() throws {
        let (dispatcher, store) = try counter()
        let calls = Recorder<Int>()
        weak var weakCanary: Canary?
        var token: ObservationToken?
        do {
            let canary = Canary()
            weakCanary = canary
            token = store.observe { change in
                withExtendedLifetime(canary) { calls.append(change.newState) }
            }
        }
        try dispatcher.dispatch(.tick, payload: 1)
        #expect(weakCanary != nil)

        token = nil
        try dispatcher.dispatch(.tick, payload: 1)

        #expect(token == nil)
        #expect(calls.values == [1])
        #expect(weakCanary == nil, "the observer closure and what it captured are freed")
    }

    @Test func cancelFreesTheObserverClosure() throws {
        let (dispatcher, store) = try counter()
        weak var weakCanary: Canary?
        let token: ObservationToken
        do {
            let canary = Canary()
            weakCanary = canary
            token = store.observe { _ in withExtendedLifetime(canary) {} }
        }

        token.cancel()
        try dispatcher.dispatch(.tick, payload: 1)

        #expect(weakCanary == nil)
    }

    @Test func cancellingOneTokenLeavesTheOthers() throws {
        let (dispatcher, store) = try counter()
        let calls = Recorder<String>()
        let first = store.observe { change in calls.append("first:\(change.newState)") }
        let second = store.observe { change in calls.append("second:\(change.newState)") }
        let third = store.observe { change in calls.append("third:\(change.newState)") }

        second.cancel()
        try dispatcher.dispatch(.tick, payload: 1)

        #expect(calls.values == ["first:1", "third:1"])
        withExtendedLifetime((first, third)) {}
    }

    @Test func aTokenOutlivingItsStoreCancelsQuietly() throws {
        var dispatcher: Dispatcher? = Dispatcher()
        try dispatcher?.register(TokenCounterStore.self)
        let token = try #require(try dispatcher?.store(TokenCounterStore.self)).observe { _ in }
        weak let weakDispatcher = dispatcher

        dispatcher = nil
        token.cancel()

        #expect(weakDispatcher == nil)
        #expect(token.isCancelled)
    }
}
