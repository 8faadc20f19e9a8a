import Fluxion
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct ChangeStreamTests {
    @Test func aStoresStreamYieldsEveryChangeInOrderEvenWhenConsumedLater() async throws {
        let (dispatcher, store) = try makeCounterStore()
        let changes = store.changes

        for _ in 0..<10_000 { try dispatcher.dispatch(.counterAdd, payload: 1) }
        var totals: [Int] = []
        for await change in changes {
            totals.append(change.newState.total)
            if totals.count == 10_000 { break }
        }

        #expect(totals == Array(1...10_000), "the default buffer is unbounded: no change is dropped")
    }

    @Test func aBoundedStreamKeepsTheNewestChange() async throws {
        let (dispatcher, store) = try makeCounterStore()
        let changes = store.changes(bufferingPolicy: .bufferingNewest(1))

        for _ in 0..<100 { try dispatcher.dispatch(.counterAdd, payload: 1) }
        var iterator = changes.makeAsyncIterator()

        #expect(await iterator.next()?.newState.total == 100)
    }

    @Test func aStoresStreamEndsWhenTheStoreIsReleased() async throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(CountingStore.self)
        let changes = try dispatcher.store(CountingStore.self).changes
        try dispatcher.dispatch(.counterAdd, payload: 1)

        dispatcher.unregister(CountingStore.self)
        var totals: [Int] = []
        for await change in changes { totals.append(change.newState.total) }

        #expect(totals == [1], "buffered changes arrive, then the sequence ends")
    }

    @Test func aDispatchersStreamEndsWhenTheDispatcherIsReleased() async throws {
        var dispatcher: Dispatcher? = Dispatcher()
        try dispatcher?.register(CountingStore.self)
        let changes = try #require(dispatcher).changes
        try dispatcher?.dispatch(.counterAdd, payload: 4)

        dispatcher = nil
        var names: [String] = []
        for await change in changes { names.append("\(change.storeType) \(change.action.name)") }

        #expect(names == ["CountingStore supportCounterAdd"])
    }

    @Test func cancellingTheConsumingTaskEndsTheLoop() async throws {
        let (dispatcher, store) = try makeCounterStore()
        let changes = store.changes
        let received = Gate()
        let consumer = Task {
            var count = 0
            for await _ in changes {
                count += 1
                received.open()
            }
            return count
        }
        try dispatcher.dispatch(.counterAdd, payload: 1)
        await withCheckedContinuation { continuation in
            Thread {
                received.wait()
                continuation.resume()
            }.start()
        }

        consumer.cancel()
        let count = await consumer.value
        try dispatcher.dispatch(.counterAdd, payload: 1)  // the stream's observer is gone: nothing to hear it

        #expect(count == 1)
    }
}
