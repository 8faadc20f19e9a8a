import Fluxion
import Testing

@Suite(.timeLimit(.minutes(10))) struct AnyStoreChangeTests {
    @Test func aChangeNamesItsStoreWhileTheStoreExists() throws {
        let (dispatcher, store) = try makeCounterStore()
        let changes = Recorder<AnyStoreChange>()
        let token = dispatcher.observe { changes.append($0) }

        try dispatcher.dispatch(.counterAdd, payload: 2)

        let change = try #require(changes.values.first)
        #expect(change.store === store)
        #expect(change.store(as: CountingStore.self) === store)
        #expect(change.store(as: AnyStoreChangeTests.Other.self) == nil)
        #expect(ObjectIdentifier(change.storeType) == ObjectIdentifier(CountingStore.self))
        token.cancel()
    }

    @Test func aKeptChangeDoesNotKeepItsStoreAlive() throws {
        var dispatcher: Dispatcher? = Dispatcher()
        try dispatcher?.register(CountingStore.self)
        let store = Weak(object: try dispatcher?.store(CountingStore.self))
        let kept = Recorder<AnyStoreChange>()
        let token = try #require(dispatcher).observe { kept.append($0) }
        try dispatcher?.dispatch(.counterAdd, payload: 3)

        dispatcher = nil

        #expect(store.object == nil)
        let change = try #require(kept.values.first)
        #expect(change.store == nil)
        #expect(change.store(as: CountingStore.self) == nil)
        #expect(
            ObjectIdentifier(change.storeType) == ObjectIdentifier(CountingStore.self), "the type outlives the store")
        #expect(change.change(as: Tally.self)?.newState.total == 3)
        #expect(change.action.name == "supportCounterAdd")
        token.cancel()
    }

    @Test func aChangeBufferedInTheDispatchersStreamLetsTheStoreAndItsStreamEnd() async throws {
        var dispatcher: Dispatcher? = Dispatcher()
        try dispatcher?.register(CountingStore.self)
        let all = try #require(dispatcher).changes
        let ownChanges = try #require(dispatcher).store(CountingStore.self).changes
        let store = Weak(object: try dispatcher?.store(CountingStore.self))
        try dispatcher?.dispatch(.counterAdd, payload: 4)

        dispatcher = nil

        // NB: required, not expected: were the store alive, its stream would never end.
        try #require(store.object == nil)
        var totals: [Int] = []
        for await change in ownChanges { totals.append(change.newState.total) }
        var buffered: [AnyStoreChange] = []
        for await change in all { buffered.append(change) }
        #expect(totals == [4])
        #expect(buffered.map { $0.change(as: Tally.self)?.newState.total } == [4])
        #expect(buffered.first?.store == nil)
    }

    /// A class that is not a store.
    final class Other {}
}
