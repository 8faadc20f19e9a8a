import Fluxion
import Testing

@Suite(.timeLimit(.minutes(10))) struct DispatcherTaskDrainTests {
    /// The drain condition counts the tasks still running, not whether one ended.
    @Test func waitUntilDrainedWaitsForATaskWhenAnotherEndedAtOnce() async throws {
        let (dispatcher, store) = try makeCounterStore()
        let release = OneShotSignal()
        let waiting = OneShotSignal()
        dispatcher.dispatchTask { dispatcher in
            await release.wait()
            try dispatcher.dispatch(.counterAdd, payload: 1)
        }
        let quick = dispatcher.dispatchTask { _ in }
        _ = await quick.result
        #expect(dispatcher.runningTaskCount == 1)

        let drained = Task {
            waiting.fire()
            await dispatcher.waitUntilDrained()
            return store.state.total
        }
        await waiting.wait()
        release.fire()

        #expect(await drained.value == 1, "drained only after the slow task's dispatch")
        #expect(dispatcher.runningTaskCount == 0)
    }
}
