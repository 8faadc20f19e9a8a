import Testing

@testable import Fluxion

/// The registry of tracked tasks, without tasks: ids, cancellation, and the order of attach and cancel.
@Suite(.timeLimit(.minutes(10))) struct TaskRegistryTests {
    /// Counts the cancellations a registry hands out.
    private final class Cancellations: @unchecked Sendable {  // touched on the test's thread alone
        var count = 0
    }

    /// A task handle that counts its cancellations in `cancellations`, by `weight`.
    private struct Handle: TaskCancelling {
        var cancellations = Cancellations()
        var weight = 1

        func cancel() { cancellations.count += weight }
    }

    private static let dispatcher = ObjectIdentifier(Cancellations.self)

    private static func task(_ id: String?, parent: TrackedTask? = nil, asked serial: UInt64 = 0) -> TrackedTask {
        TrackedTask(dispatcher: dispatcher, id: id.map(TaskKey.init), requestSerial: serial, parent: parent)
    }

    @Test func cancellingAnIdMarksOnlyItsTasksAndHandsOutTheirCancellations() {
        var registry = TaskRegistry()
        let cancelled = Cancellations()
        let (search, other) = (Self.task("search"), Self.task("other"))
        _ = registry.begin(search, cancellingInFlight: false)
        _ = registry.begin(other, cancellingInFlight: false)
        _ = registry.attach(Handle(cancellations: cancelled, weight: 1), to: search)
        _ = registry.attach(Handle(cancellations: cancelled, weight: 100), to: other)

        let key = TaskKey("search")
        for handle in registry.cancel(key) { handle.cancel() }

        #expect(cancelled.count == 1)
        #expect(registry.isCancelled(search) && !registry.isCancelled(other))
        #expect(registry.hasCancelled && registry.cancellations == 1)
        registry.end(search)
        #expect(registry.count == 1)
    }

    @Test func aTaskStaysCancelledAfterItEnded() {
        var registry = TaskRegistry()
        let search = Self.task("search")
        _ = registry.begin(search, cancellingInFlight: false)
        _ = registry.cancel(TaskKey("search"))

        registry.end(search)

        #expect(search.isCancelled, "a dispatch it held, or a plain task it started, is refused after it ended")
        #expect(!registry.isCancelled(search) && registry.count == 0)
    }

    @Test func cancellingATaskCancelsTheTasksItStartedAndTheirs() {
        var registry = TaskRegistry()
        let parent = Self.task("parent")
        let child = Self.task(nil, parent: parent)
        let grandchild = Self.task(nil, parent: child)
        let other = Self.task(nil)
        for task in [parent, child, grandchild, other] { _ = registry.begin(task, cancellingInFlight: false) }

        let key = TaskKey("parent")
        _ = registry.cancel(key)

        #expect(parent.isCancelled && child.isCancelled && grandchild.isCancelled)
        #expect(child.isCancelledItself && grandchild.isCancelledItself, "their tasks are cancelled too")
        #expect(!other.isCancelled)
    }

    /// A task registered, as its parent is cancelled between the check and the registration, is cancelled.
    @Test func aTaskStartedByACancelledTaskIsCancelledFromTheStart() {
        var registry = TaskRegistry()
        let parent = Self.task("parent")
        _ = registry.begin(parent, cancellingInFlight: false)
        _ = registry.cancel(TaskKey("parent"))

        let child = Self.task(nil, parent: parent)
        _ = registry.begin(child, cancellingInFlight: false)

        #expect(registry.isCancelled(child))
        let isCancelledOnAttach = registry.attach(Handle(), to: child)
        #expect(isCancelledOnAttach)  // NB: the task is cancelled as soon as it exists
    }

    @Test func aTaskCancelledBeforeItIsAttachedIsCancelledOnAttach() {
        var registry = TaskRegistry()
        let task = Self.task(nil)
        _ = registry.begin(task, cancellingInFlight: false)

        let handedOut = registry.cancel(nil)
        let cancelNow = registry.attach(Handle(), to: task)

        #expect(handedOut.isEmpty, "nothing to call yet")
        #expect(cancelNow)
    }

    @Test func startingWithCancelInFlightCancelsTheRunningTasksOfTheId() {
        var registry = TaskRegistry()
        let (first, second) = (Self.task("7"), Self.task("7"))
        _ = registry.begin(first, cancellingInFlight: false)
        _ = registry.attach(Handle(), to: first)

        let cancellations = registry.begin(second, cancellingInFlight: true)

        #expect(cancellations.count == 1)
        #expect(first.isCancelled && !second.isCancelled)
    }

    @Test func aQueuedStartIsReachedByCancellingItsIdButNotByCancelInFlight() {
        var registry = TaskRegistry()
        let (queued, replacing) = (Self.task("search"), Self.task("search"))
        registry.queueStart(of: queued)

        _ = registry.begin(replacing, cancellingInFlight: true)
        #expect(!queued.isCancelled, "a cancelInFlight cancels only the tasks running")

        _ = registry.cancel(TaskKey("search"))
        #expect(queued.isCancelled)
        _ = registry.begin(queued, cancellingInFlight: false)
        let isCancelledOnAttach = registry.attach(Handle(), to: queued)
        #expect(isCancelledOnAttach, "it starts cancelled, and never runs its work")
    }

    @Test func tasksEndInAnyOrderAndTheOthersStayReachable() {
        var registry = TaskRegistry()
        let tasks = (0..<4).map { Self.task("\($0)") }
        for task in tasks { _ = registry.begin(task, cancellingInFlight: false) }
        for task in tasks { _ = registry.attach(Handle(), to: task) }

        registry.end(tasks[1])
        registry.end(tasks[3])
        registry.end(tasks[3])

        #expect(registry.count == 2)
        let attachedAfterItsEnd = registry.attach(Handle(), to: tasks[1])
        #expect(!attachedAfterItsEnd, "an ended task is not attached again")
        let handedOut = registry.cancel(nil)
        #expect(handedOut.count == 2)
        #expect(tasks[0].isCancelled && tasks[2].isCancelled && !tasks[1].isCancelled && !tasks[3].isCancelled)
        registry.end(tasks[0])
        registry.end(tasks[2])
        let none = registry.cancel(nil)
        #expect(registry.count == 0 && none.isEmpty)
    }

    /// A task a step asked for, not registered yet, is reached at its commit by a cancellation recorded after
    /// it was asked for; one asked for after the cancellation is not.
    @Test func aCancellationRecordedWhileAStepRunsReachesTheTasksItAskedForBefore() {
        var registry = TaskRegistry()
        let before = Self.task("import", asked: registry.cancellations)
        _ = registry.cancel(TaskKey("import"), recording: true)
        let after = Self.task("import", asked: registry.cancellations)
        let other = Self.task("other", asked: 0)

        for task in [before, after, other] { _ = registry.begin(task, cancellingInFlight: false) }

        #expect(before.isCancelled && before.startsCancelled, "its work never runs")
        #expect(!after.isCancelled && !other.isCancelled)
        let isCancelledOnAttach = registry.attach(Handle(), to: before)
        #expect(isCancelledOnAttach)
    }

    @Test func aQueuedStartAskedForBeforeARecordedCancellationIsReachedAsItIsQueued() {
        var registry = TaskRegistry()
        let queued = Self.task("import", asked: registry.cancellations)
        _ = registry.cancel(nil, recording: true)

        registry.queueStart(of: queued)

        #expect(queued.isCancelled)
    }

    @Test func aCancellationNotRecordedOrForgottenReachesNoTaskAskedForBefore() {
        var registry = TaskRegistry()
        let (unrecorded, forgotten) = (Self.task("import"), Self.task("other"))
        _ = registry.cancel(TaskKey("import"))
        _ = registry.begin(unrecorded, cancellingInFlight: false)
        #expect(!unrecorded.isCancelled, "no turn was held: no step had asked for it")

        _ = registry.cancel(TaskKey("other"), recording: true)
        registry.forgetRecent()
        _ = registry.begin(forgotten, cancellingInFlight: false)
        #expect(!forgotten.isCancelled, "the step that could have asked for it before had committed")
    }

    @Test func closingCancelsEveryTaskAndEveryTaskAskedForAfterward() {
        var registry = TaskRegistry()
        let (running, queued) = (Self.task("poll"), Self.task(nil))
        _ = registry.begin(running, cancellingInFlight: false)
        _ = registry.attach(Handle(), to: running)
        registry.queueStart(of: queued)

        let handedOut = registry.close()
        registry.forgetRecent()
        let later = Self.task("poll", asked: registry.cancellations)
        _ = registry.begin(later, cancellingInFlight: false)

        #expect(handedOut.count == 1 && running.isCancelled && queued.isCancelled)
        #expect(registry.isClosed && later.isCancelled && later.startsCancelled)
    }

    @Test func runningTasksKeepTheTurnFromBeingDrained() async {
        var turn = TurnState()
        turn.taskCount = 1
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = turn.addDrainWaiter(continuation, id: turn.drainWaiterID())
            turn.taskCount = 0
            let waiters = turn.takeDrainWaitersIfDrained()
            #expect(waits)
            #expect(waiters.count == 1)
            for waiter in waiters { waiter.resume() }
        }
    }
}
