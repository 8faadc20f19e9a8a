import Testing

@testable import Fluxion

@Suite struct ChangeRelayTests {
    @Test func wholeDispatcherObserversOfGoneOwnersAreFreedWithoutAChange() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(CountingStore.self)
        _ = try dispatcher.store(CountingStore.self)

        for _ in 0..<20_000 {
            let owner = ObserverOwner()
            dispatcher.observe(owner: owner) { _, _ in }
        }

        // No store changed meanwhile: the list dropped gone observers as it grew.
        #expect(dispatcher.relay.count < 100, "\(dispatcher.relay.count) observers kept")
    }

    @Test func droppedChangeStreamsAreFreedWithoutAChange() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(CountingStore.self)

        for _ in 0..<20_000 {
            _ = dispatcher.changes
        }

        #expect(dispatcher.relay.count < 100, "\(dispatcher.relay.count) observers kept")
    }
}
