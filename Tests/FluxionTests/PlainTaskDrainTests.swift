import Dispatch
import Testing

@testable import Fluxion

/// Runs the jobs of the tasks that prefer it one at a time, in the order they were enqueued: what a test
/// orders on it happens in that order. Also starts a dispatcher's tracked tasks on itself.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class SerialTaskExecutor: TaskExecutor, TaskStarter {
    private let queue = DispatchQueue(label: "SerialTaskExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    func start<Value: Sendable>(
        priority: TaskPriority?, _ operation: @escaping @Sendable () async throws -> Value
    ) -> Task<Value, any Error> {
        Task(executorPreference: self, priority: priority, operation: operation)
    }
}

/// A plain `Task` that a tracked task's code starts belongs to that tracked task, as its child tasks do: it is
/// not a tracked task itself, and its `waitUntilDrained()` does not wait for the task it belongs to while that
/// one runs — but, once that one has ended, it waits for every tracked task still running.
@Suite(.timeLimit(.minutes(10))) struct PlainTaskDrainTests {
    @Test(arguments: TaskStart.allCases)
    func aPlainTaskWaitsForEveryOtherTrackedTaskOnceItsOwnHasEnded(_ start: TaskStart) async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let dispatcher = Dispatcher()
        try dispatcher.register(NotebookStore.self)
        let executor = SerialTaskExecutor()
        dispatcher.taskStarter = executor
        let log = Recorder<String>()
        let (ends, ended) = AsyncStream.makeStream(of: Void.self)
        dispatcher.observeTaskEnds { ended.yield() }
        let other = OneShotSignal()
        dispatcher.dispatchTask { _ in
            await other.wait()
            log.append("the other task ends")
        }
        let plain = LockedBox<Task<Void, Never>?>(nil)

        try start.start(
            TaskWork(id: "effect") { dispatcher in
                plain.value = Task(executorPreference: executor) {
                    await dispatcher.waitUntilDrained()
                    log.append("the plain task's wait returns")
                }
                // NB: on one serial executor, the plain task begins to wait before this one ends.
                await Task.yield()
            }, on: dispatcher)
        for await _ in ends { break }  // NB: the task that started the plain one has ended
        other.fire()
        await plain.value?.value

        #expect(log.values == ["the other task ends", "the plain task's wait returns"])
        await dispatcher.waitUntilDrained()
    }

    @Test(arguments: TaskStart.allCases)
    func aPlainTaskDoesNotWaitForTheTaskItBelongsTo(_ start: TaskStart) async throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(NotebookStore.self)
        let drained = OneShotSignal()

        try start.start(
            TaskWork(id: "effect") { dispatcher in
                // NB: the task that started it waits for it: were it to wait for that task, neither would end.
                await Task {
                    await dispatcher.waitUntilDrained()
                    drained.fire()
                }.value
            }, on: dispatcher)

        await drained.wait()
        await dispatcher.waitUntilDrained()
        #expect(dispatcher.runningTaskCount == 0)
    }
}
