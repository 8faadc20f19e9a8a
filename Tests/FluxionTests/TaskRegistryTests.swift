import Testing

@testable import Fluxion

/// The registry of tracked tasks, without tasks: ids, cancellation, and the order of attach and cancel.
@Suite(.timeLimit(.minutes(1))) struct TaskRegistryTests {
    /// Counts the cancellations a registry hands out.
    private final class Cancellations: @unchecked Sendable {  // touched on the test's thread alone
        var count = 0
    }

    @Test func cancellingAnIdMarksOnlyItsTasksAndHandsOutTheirCancellations() {
        var registry = TaskRegistry()
        let cancelled = Cancellations()
        let (search, _) = registry.begin(id: TaskKey("search"), cancellingInFlight: false)
        let (other, _) = registry.begin(id: TaskKey("other"), cancellingInFlight: false)
        _ = registry.attach({ cancelled.count += 1 }, to: search)
        _ = registry.attach({ cancelled.count += 100 }, to: other)

        let key = TaskKey("search")
        for cancel in registry.cancel(where: { $0 == key }) { cancel() }

        #expect(cancelled.count == 1)
        #expect(registry.isCancelled(search) && !registry.isCancelled(other))
        #expect(registry.cancelledCount == 1)
        registry.end(search)
        #expect(registry.cancelledCount == 0 && registry.count == 1)
    }

    @Test func cancellingATaskCancelsTheTasksItStartedAndTheirs() {
        var registry = TaskRegistry()
        let (parent, _) = registry.begin(id: TaskKey("parent"), cancellingInFlight: false)
        let (child, _) = registry.begin(id: nil, cancellingInFlight: false, parent: parent)
        let (grandchild, _) = registry.begin(id: nil, cancellingInFlight: false, parent: child)
        let (other, _) = registry.begin(id: nil, cancellingInFlight: false)

        let key = TaskKey("parent")
        _ = registry.cancel { $0 == key }

        #expect(registry.isCancelled(parent) && registry.isCancelled(child) && registry.isCancelled(grandchild))
        #expect(!registry.isCancelled(other))
        #expect(registry.cancelledCount == 3)
    }

    /// A task registered, as its parent is cancelled between the check and the registration, is cancelled.
    @Test func aTaskStartedByACancelledTaskIsCancelledFromTheStart() {
        var registry = TaskRegistry()
        let (parent, _) = registry.begin(id: TaskKey("parent"), cancellingInFlight: false)
        let key = TaskKey("parent")
        _ = registry.cancel { $0 == key }

        let (child, _) = registry.begin(id: nil, cancellingInFlight: false, parent: parent)

        #expect(registry.isCancelled(child))
        let isCancelledOnAttach = registry.attach({}, to: child)
        #expect(isCancelledOnAttach)  // NB: the task is cancelled as soon as it exists
        #expect(registry.cancelledCount == 2)
    }

    @Test func aTaskCancelledBeforeItIsAttachedIsCancelledOnAttach() {
        var registry = TaskRegistry()
        let (token, _) = registry.begin(id: nil, cancellingInFlight: false)

        let handedOut = registry.cancel { _ in true }
        let cancelNow = registry.attach({}, to: token)

        #expect(handedOut.isEmpty, "nothing to call yet")
        #expect(cancelNow)
    }

    @Test func startingWithCancelInFlightCancelsTheRunningTasksOfTheId() {
        var registry = TaskRegistry()
        let (first, _) = registry.begin(id: TaskKey(7), cancellingInFlight: false)
        _ = registry.attach({}, to: first)

        let (second, cancellations) = registry.begin(id: TaskKey(7), cancellingInFlight: true)

        #expect(cancellations.count == 1)
        #expect(registry.isCancelled(first) && !registry.isCancelled(second))
    }

    @Test func runningTasksKeepTheTurnFromBeingDrained() async {
        var turn = TurnState()
        turn.hasTasks = true
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = turn.addDrainWaiter(continuation, id: turn.drainWaiterID())
            turn.hasTasks = false
            let waiters = turn.takeDrainWaitersIfDrained()
            #expect(waits)
            #expect(waiters.count == 1)
            for waiter in waiters { waiter.resume() }
        }
    }
}
