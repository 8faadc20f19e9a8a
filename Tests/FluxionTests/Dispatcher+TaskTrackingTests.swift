import Fluxion
import Testing

@Suite(.timeLimit(.minutes(10))) struct DispatcherTaskTrackingTests {
    @Test func waitUntilDrainedWaitsForTheWorkOfDispatchTask() async throws {
        let (dispatcher, store) = try makeCounterStore()
        let release = OneShotSignal()
        let waiting = OneShotSignal()
        dispatcher.dispatchTask { dispatcher in
            await release.wait()
            try dispatcher.dispatch(.counterAdd, payload: 1)
        }

        let drained = Task {
            waiting.fire()
            await dispatcher.waitUntilDrained()
            return store.state.total
        }
        await waiting.wait()
        release.fire()

        #expect(await drained.value == 1, "drained only after the task's dispatch")
        #expect(dispatcher.runningTaskCount == 0)
    }

    @Test func aCancelledTaskDispatchesNothingAndItsDispatchThrowsCancellationError() async throws {
        let (dispatcher, store) = try makeCounterStore()
        let release = OneShotSignal()
        let task = dispatcher.dispatchTask(id: "load") { dispatcher -> String in
            await release.wait()
            do {
                try dispatcher.dispatch(.counterAdd, payload: 1)
                return "dispatched"
            } catch is CancellationError {
                return "refused"
            }
        }

        dispatcher.cancelTasks(id: "load")
        release.fire()

        #expect(try await task.value == "refused")
        #expect(store.state == Tally())
        await dispatcher.waitUntilDrained()
        #expect(dispatcher.runningTaskCount == 0)
    }

    @Test func cancelInFlightCancelsTheRunningTaskOfTheSameIdOnly() async throws {
        let (dispatcher, store) = try makeCounterStore()
        let release = OneShotSignal()
        let work: @Sendable (Int) -> @Sendable (Dispatcher) async throws -> Void = { amount in
            { dispatcher in
                await release.wait()
                try dispatcher.dispatch(.counterAdd, payload: amount)
            }
        }
        let first = dispatcher.dispatchTask(id: "search", work(1))
        let other = dispatcher.dispatchTask(id: "other", work(10))
        let second = dispatcher.dispatchTask(id: "search", cancelInFlight: true, work(100))
        release.fire()

        await #expect(throws: CancellationError.self) { try await first.value }
        try await other.value
        try await second.value
        #expect(store.state.payloads.sorted() == [10, 100])
    }

    @Test func cancelAllTasksCancelsEveryTrackedTask() async throws {
        let (dispatcher, store) = try makeCounterStore()
        let release = OneShotSignal()
        let tasks = ["a", "b"].map { id in
            dispatcher.dispatchTask(id: id) { dispatcher in
                await release.wait()
                try dispatcher.dispatch(.counterAdd, payload: 1)
            }
        }
        let untagged = dispatcher.dispatchTask { dispatcher in
            await release.wait()
            try dispatcher.dispatch(.counterAdd, payload: 1)
        }

        dispatcher.cancelAllTasks()
        release.fire()

        for task in tasks + [untagged] {
            await #expect(throws: CancellationError.self) { try await task.value }
        }
        #expect(store.state == Tally())
    }

    @Test func aCancelledTaskStillDispatchesToAnotherDispatcher() async throws {
        let (dispatcher, _) = try makeCounterStore()
        let (other, otherStore) = try makeCounterStore()
        let release = OneShotSignal()
        let task = dispatcher.dispatchTask(id: 1) { _ in
            await release.wait()
            try other.dispatch(.counterAdd, payload: 5)
        }

        dispatcher.cancelTasks(id: 1)
        release.fire()

        try await task.value
        #expect(otherStore.state.total == 5)
    }

    @Test func aStoreCanBeRegisteredWithASeededState() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(CountingStore.self, initialState: Tally(total: 41, calls: 0, payloads: []))
        try dispatcher.register(SecondCountingStore.self, initialState: Tally(total: 7, calls: 0, payloads: [])) {
            SecondCountingStore()
        }

        try dispatcher.dispatch(.counterAdd, payload: 1)

        #expect(try dispatcher.store(CountingStore.self).state.total == 42)
        #expect(try dispatcher.store(SecondCountingStore.self).state.total == 7 + 1 * 10)
    }
}
