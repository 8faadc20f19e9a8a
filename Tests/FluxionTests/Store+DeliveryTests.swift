import Dispatch
import Fluxion
import Foundation
import Testing

/// Waits on the main queue for every call queued on it before this one.
@MainActor
private func drainMainQueue() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { continuation.resume() }
    }
}

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct StoreDeliveryTests {
    @Test func anOwnerObserverOnAQueueHearsEveryChangeOnThatQueueInOrder() throws {
        let (dispatcher, store) = try makeCounterStore()
        let queue = DispatchQueue(label: "delivery-test", attributes: .concurrent)
        let owner = ObserverOwner()
        let seen = Recorder<Int>()
        let arrived = ArrivalCounter()
        store.observe(owner: owner, on: queue) { _, change in
            dispatchPrecondition(condition: .onQueue(queue))
            seen.append(change.newState.total)
            arrived.arrive()
        }

        runOnThreads(4) { _ in
            for _ in 0..<250 { try? dispatcher.dispatch(.counterAdd, payload: 1) }
        }
        arrived.wait(for: 1_000)

        #expect(seen.values == Array(1...1_000), "a concurrent target queue must not reorder the changes")
    }

    @Test func aTokenObserverOnAQueueHearsTheCurrentStateFirst() throws {
        let (dispatcher, store) = try makeCounterStore()
        try dispatcher.dispatch(.counterAdd, payload: 5)
        let seen = Recorder<(Int, Bool)>()
        let arrived = ArrivalCounter()

        let token = store.observe(on: DispatchQueue(label: "delivery-test"), sendingCurrentState: true) { change in
            seen.append((change.newState.total, change.isCurrentState))
            arrived.arrive()
        }
        try dispatcher.dispatch(.counterAdd, payload: 1)
        arrived.wait(for: 2)

        #expect(seen.values.map(\.0) == [5, 6])
        #expect(seen.values.map(\.1) == [true, false])
        token.cancel()
    }

    @Test @MainActor func aMainActorObserverRunsOnTheMainActorInOrder() async throws {
        let (dispatcher, store) = try makeCounterStore()
        let owner = ObserverOwner()
        let seen = Recorder<Int>()
        store.observeOnMainActor(owner: owner) { _, change in
            MainActor.assertIsolated()
            seen.append(change.newState.total)
        }

        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                for _ in 0..<100 { try? dispatcher.dispatch(.counterAdd, payload: 1) }
                continuation.resume()
            }.start()
        }
        await drainMainQueue()

        #expect(seen.values == Array(1...100))
        withExtendedLifetime(owner) {}
    }

    @Test @MainActor func aCancelledMainActorTokenSkipsTheCallsStillQueued() async throws {
        let (dispatcher, store) = try makeCounterStore()
        let seen = Recorder<Int>()
        let token = store.observeOnMainActor { change in seen.append(change.newState.total) }

        for _ in 0..<3 { try dispatcher.dispatch(.counterAdd, payload: 1) }
        token.cancel()
        await drainMainQueue()

        #expect(seen.values.isEmpty, "the three calls were queued before the cancel, and must not start after it")
    }

    @Test @MainActor func aQueuedCallIsSkippedWhenItsOwnerIsGone() async throws {
        let (dispatcher, store) = try makeCounterStore()
        let seen = Recorder<Int>()
        var owner: ObserverOwner? = ObserverOwner()
        store.observeOnMainActor(owner: owner!) { _, change in seen.append(change.newState.total) }

        try dispatcher.dispatch(.counterAdd, payload: 1)
        owner = nil
        await drainMainQueue()

        #expect(seen.values.isEmpty)
    }

    @Test func aKeyPathObserverOnAQueueHearsOnlyChangedValues() throws {
        let (dispatcher, store) = try makeCounterStore()
        let owner = ObserverOwner()
        let queue = DispatchQueue(label: "delivery-test")
        let seen = Recorder<Int>()
        let arrived = ArrivalCounter()
        store.observe(owner: owner, \.total, on: queue) { _, total in
            dispatchPrecondition(condition: .onQueue(queue))
            seen.append(total.newValue)
            arrived.arrive()
        }

        try dispatcher.dispatch(.counterAdd, payload: 0)
        try dispatcher.dispatch(.counterAdd, payload: 2)
        arrived.wait(for: 1)

        #expect(seen.values == [2])
    }
}
