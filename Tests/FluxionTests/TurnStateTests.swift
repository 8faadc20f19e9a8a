import Testing

@testable import Fluxion

/// The dispatch turn's state machine, without threads: each decision it makes.
@Suite(.timeLimit(.minutes(10))) struct TurnStateTests {
    private let first = ThreadID(raw: 1)
    private let second = ThreadID(raw: 2)

    private enum Arrival {
        case run
        case queued
    }

    /// An action from `thread` arrives: `Admission` decides, and the turn records the decision.
    private func arrive(
        _ turn: inout TurnState, _ thread: ThreadID, _ name: String, creating: Bool = false, exclusively: Bool = false
    ) -> Arrival? {
        var facts = Admission.Facts()
        facts.actsForHolder = turn.admits(thread, isCreatingForHolder: creating)
        facts.holderIsBetweenActions = turn.holderIsBetweenActions
        facts.isSuspended = turn.isSuspended
        facts.isTurnFree = turn.isFree(for: thread)
        let action = QueuedAction(AnyAction(name: name), cause: .outside, task: nil)
        switch Admission.decide(.action(exclusively: exclusively), facts) {
        case .queueBehindStep:
            turn.queueBehindHolder(action)
            return .queued
        case .waitForRelease:
            turn.waitForRelease(action)
            return .queued
        case .run:
            return turn.take(by: thread) ? .run : nil
        default:
            return nil
        }
    }

    private func drain(_ turn: inout TurnState) -> [String] {
        var names: [String] = []
        var waiters: [CheckedContinuation<Void, Never>] = []
        while let next = turn.next(endingWith: &waiters) { names.append(next.action.name) }
        return names
    }

    @Test func aFreeTurnIsTakenAndAnotherThreadMustWait() {
        var turn = TurnState()

        let taken = arrive(&turn, first, "a")
        let waiting = arrive(&turn, second, "b")

        #expect(taken == .run)
        #expect(turn.holder == first)
        #expect(waiting == nil)
    }

    @Test func theHoldersDispatchesQueueInOrderAndTheTurnEndsAfterThem() {
        var turn = TurnState()
        _ = arrive(&turn, first, "a")

        let second = arrive(&turn, first, "b")
        let third = arrive(&turn, first, "c")

        #expect(second == .queued && third == .queued)
        #expect(drain(&turn) == ["b", "c"])
        #expect(turn.holder == nil)
    }

    /// While a journal shows the past, tasks' dispatches are held, in order, and a drain does not wait for them.
    /// The move back to the present queues them first, before what its observers queued, in its own turn.
    @Test func heldActionsRunFirstWhenReleasedInOrderOrAreTakenAway() {
        var turn = TurnState()
        turn.holdsTaskDispatches = true
        turn.hold(QueuedAction(AnyAction(name: "a"), cause: .outside, task: nil))
        turn.hold(QueuedAction(AnyAction(name: "b"), cause: .outside, task: nil))

        var waiters: [CheckedContinuation<Void, Never>] = []
        let next = turn.next(endingWith: &waiters)
        #expect(next == nil)  // nothing runs meanwhile
        let takes = turn.take(by: first)  // the move takes the turn
        #expect(takes)
        #expect(arrive(&turn, first, "queued by an observer of the move") == .queued)
        turn.releaseHeldFirst()

        #expect(!turn.holdsTaskDispatches)
        #expect(drain(&turn) == ["a", "b", "queued by an observer of the move"])

        turn.holdsTaskDispatches = true
        turn.hold(QueuedAction(AnyAction(name: "c"), cause: .outside, task: nil))
        var taken = turn.takeHeld()
        let first = taken.popFirst()?.action.name
        let takesAgain = turn.take(by: self.first)
        #expect(takesAgain)
        turn.releaseHeldFirst()
        #expect(first == "c")
        #expect(!turn.holdsTaskDispatches)
        #expect(drain(&turn) == [])
    }

    @Test func heldActionsReleasedDuringASuspensionWaitForItsEnd() {
        var turn = TurnState()
        turn.beginSuspension()
        turn.holdsTaskDispatches = true
        turn.hold(QueuedAction(AnyAction(name: "a"), cause: .outside, task: nil))

        let takes = turn.take(by: first)
        #expect(takes)
        turn.releaseHeldFirst()
        #expect(drain(&turn) == [])
        let ended = turn.endSuspension(by: first)

        #expect(ended.runsQueue)
        #expect(drain(&turn) == ["a"])
    }

    @Test func aFactoryTheHolderWaitsForQueuesBehindIt() {
        var turn = TurnState()
        _ = arrive(&turn, first, "a")
        turn.holderAwaitsCreation = true

        let made = arrive(&turn, second, "made", creating: true)

        #expect(made == .queued)
        #expect(drain(&turn) == ["made"])
    }

    @Test func suspendedActionsWaitForTheLastReleaseAndExclusiveOnesRun() {
        var turn = TurnState()
        turn.beginSuspension()
        turn.beginSuspension()

        let waiting = arrive(&turn, first, "a")
        let early = turn.endSuspension(by: first)
        let exclusive = arrive(&turn, second, "x", exclusively: true)
        let last = turn.endSuspension(by: first)

        #expect(waiting == .queued)
        #expect(!early.runsQueue, "one suspension is still held")
        #expect(exclusive == .run)
        #expect(!last.runsQueue, "another thread holds the turn: it runs them")
        #expect(drain(&turn) == ["a"])
    }

    @Test func theLastReleaseRunsTheWaitingActionsWhenTheTurnIsFree() {
        var turn = TurnState()
        turn.beginSuspension()
        _ = arrive(&turn, second, "a")

        let release = turn.endSuspension(by: first)

        #expect(release.runsQueue)
        #expect(turn.holder == first)
        #expect(drain(&turn) == ["a"])
    }

    @Test func aYieldedTurnComesBackWithItsQueue() {
        var turn = TurnState()
        _ = arrive(&turn, first, "a")
        _ = arrive(&turn, first, "kept")

        var kept = turn.yield()
        let other = arrive(&turn, second, "b")
        let resumedEarly = turn.resume(first, with: &kept)
        let othersQueue = drain(&turn)
        let resumed = turn.resume(first, with: &kept)

        #expect(other == .run)
        #expect(!resumedEarly, "the other thread holds the turn")
        #expect(othersQueue == [])
        #expect(resumed)
        #expect(drain(&turn) == ["kept"])
    }

    @Test func drainWaitersResumeOnlyWhenNothingRunsOrWaits() async {
        var turn = TurnState()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = turn.addDrainWaiter(continuation, id: turn.drainWaiterID())
            #expect(!waits, "nothing runs: resume at once")
            continuation.resume()
        }
        _ = arrive(&turn, first, "a")
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = turn.addDrainWaiter(continuation, id: turn.drainWaiterID())
            var waiters: [CheckedContinuation<Void, Never>] = []
            let next = turn.next(endingWith: &waiters)
            #expect(waits)
            #expect(next == nil)
            #expect(waiters.count == 1)
            for waiter in waiters { waiter.resume() }
        }
    }
}

/// A drain waiter that belongs to a tracked task (its code, or a plain `Task` that code started) does not wait
/// for that task while it runs, and waits for every other task, that one too once it has ended.
@Suite(.timeLimit(.minutes(10))) struct DrainWaiterIdentityTests {
    /// Whether a waiter that belongs to `own` (running or not) is drained, given how many tasks run.
    private static let rows: [(ownRuns: Bool?, taskCount: Int, drained: Bool, String)] = [
        (nil, 0, true, "no task runs"),
        (nil, 1, false, "code of no task waits for every task"),
        (true, 1, true, "a task's own code does not wait for it"),
        (true, 2, false, "it waits for the others"),
        (false, 1, false, "a plain task whose task has ended waits for the one still running"),
        (false, 0, true, "and returns once nothing runs"),
    ]

    @Test(arguments: rows.indices) func eachRowDecidesWhetherTheWaiterResumes(_ row: Int) async {
        let (ownRuns, taskCount, drained, description) = Self.rows[row]
        let own = ownRuns.map { runs in
            let task = TrackedTask(dispatcher: ObjectIdentifier(TurnState.self), id: nil, requestSerial: 0)
            task.isRunning = runs
            return task
        }
        var turn = TurnState()
        turn.taskCount = taskCount
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = turn.addDrainWaiter(continuation, id: turn.drainWaiterID(), belongingTo: own)
            #expect(waits == !drained, "\(description)")
            if waits { turn.taskCount = 0 }
            var resumed = turn.takeDrainWaitersIfDrained()
            if !waits { resumed.append(continuation) }
            for waiter in resumed { waiter.resume() }
        }
    }
}

@Suite(.timeLimit(.minutes(10))) struct DrainWaitCancellationTests {
    @Test func aCancelledWaitReturnsThoughWorkStillRuns() async throws {
        let dispatcher = Dispatcher()
        // NB: work that ends only when the test lets it, after the wait returned.
        let (gate, opener) = AsyncStream.makeStream(of: Void.self)
        let endless = dispatcher.dispatchTask { _ in for await _ in gate {} }
        let waiter = Task {
            await dispatcher.waitUntilDrained()
            return Task.isCancelled
        }

        waiter.cancel()

        #expect(await waiter.value, "the wait returned because it was cancelled")
        opener.finish()
        _ = await endless.result
        await dispatcher.waitUntilDrained()
    }

    @Test func aWaitCancelledBeforeItBeginsReturnsAtOnce() async {
        var turn = TurnState()
        turn.taskCount = 1
        let id = turn.drainWaiterID()

        #expect(turn.cancelDrainWaiter(id) == nil, "not waiting yet")

        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = turn.addDrainWaiter(continuation, id: id)
            #expect(!waits, "cancelled before it began to wait: it returns at once")
            continuation.resume()
        }
    }
}
