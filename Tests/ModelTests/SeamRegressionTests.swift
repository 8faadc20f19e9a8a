import Testing

/// Programs the model shrank when each of these was a defect where two features meet: each failed
/// on the code of 2026-11-28, and is now the regression test of its fix.
@Suite struct SeamRegressionTests {
    @Test func anEffectsKeptPastItsCallIsRefused() async {
        await expectModelHolds(
            Program(operations: [.dispatch(Command(tag: 1, touches: [1, 3], reusesEffects: true))], replays: false))
    }

    @Test func aPlainTaskOfACancelledEffectChangesNothing() async {
        await expectModelHolds(
            Program(
                operations: [
                    .dispatch(
                        Command(
                            tag: 14, touches: [3],
                            then: [
                                .effect(
                                    TaskPlan(
                                        id: "b", gate: 13, dispatches: Command(tag: 14, touches: []),
                                        child: ChildPlan(gate: 14, dispatches: Command(tag: 15, touches: [1]))))
                            ])),
                    .cancelTasks(id: "b"),
                    .proceed(gate: 14),
                ], replays: false))
    }

    @Test func aHeldDispatchOfATaskCancelledLaterIsRefused() async {
        await expectModelHolds(
            Program(
                operations: [
                    .dispatch(
                        Command(
                            tag: 2, touches: [3],
                            then: [
                                .effect(
                                    TaskPlan(id: "c", gate: 3, dispatches: Command(tag: 4, touches: [0]), lingers: true)
                                )
                            ])),
                    .stepBack,
                    .proceed(gate: 3),
                    .cancelAllTasks,
                    .returnToPresent,
                ], replays: false))
    }

    @Test func anObserverCancelsAnEffectItsStepAskedFor() async {
        await expectModelHolds(
            Program(
                operations: [
                    .armObserver(store: 3, .cancelTasks(id: "c")),
                    .dispatch(
                        Command(
                            tag: 16, touches: [3],
                            then: [.effect(TaskPlan(id: "c", gate: 19, dispatches: Command(tag: 17, touches: [])))])),
                ], replays: false))
    }

    @Test func aMiddlewareThrowingAfterNextDropsNoTask() async {
        await expectModelHolds(
            Program(
                operations: [
                    .armObserver(
                        store: 0, .startTask(TaskPlan(id: "b", gate: 3, dispatches: Command(tag: 6, touches: [2])))),
                    .armMiddleware(.throwAfterNext),
                    .dispatch(Command(tag: 12, touches: [0])),
                ], replays: false))
    }

    @Test func aTaskCancelledDuringItsDispatchFinishesIt() async {
        await expectModelHolds(
            Program(
                operations: [
                    .dispatch(
                        Command(
                            tag: 3, touches: [0],
                            then: [
                                .effect(
                                    TaskPlan(
                                        id: "c", gate: 5,
                                        dispatches: Command(
                                            tag: 4, touches: [2],
                                            then: [
                                                .effect(
                                                    TaskPlan(id: "c", cancelInFlight: true, gate: 7, dispatches: nil))
                                            ])))
                            ])),
                    .armObserver(store: 2, .dispatch(Command(tag: 12, touches: [0, 2]))),
                    .armObserver(store: 2, .dispatch(Command(tag: 16, touches: [1, 2]))),
                    .proceed(gate: 5),
                ], replays: false))
    }

    @Test func aTaskDispatchReleasedInThePastIsHeld() async {
        await expectModelHolds(
            Program(
                operations: [
                    .suspend,
                    .startTask(TaskPlan(id: nil, gate: 9, dispatches: Command(tag: 13, touches: [0]))),
                    .proceed(gate: 9),
                    .dispatchBypassingSuspension(Command(tag: 22, touches: [1])),
                    .stepBack,
                    .release,
                    .returnToPresent,
                ], replays: false))
    }

    @Test func aTaskAwaitingTheDrainDoesNotWaitForItself() async {
        await expectModelHolds(
            Program(
                operations: [
                    .startTask(TaskPlan(id: "a", gate: 1, dispatches: Command(tag: 1, touches: [0]), drains: true)),
                    .proceed(gate: 1),
                ], replays: false))
    }

    @Test func aMoveInsideABatchIsRefused() async {
        await expectModelHolds(
            Program(
                operations: [
                    .dispatch(Command(tag: 3, touches: [0])),
                    .batchSteppingBack(Command(tag: 5, touches: [1])),
                ], replays: false))
    }

    @Test func anObserverOfAMoveCannotCommitInThePast() async {
        await expectModelHolds(
            Program(
                operations: [
                    .dispatch(Command(tag: 9, touches: [0])),
                    .armObserver(store: 0, .dispatch(Command(tag: 10, touches: [0, 2]))),
                    .stepBack,
                ], replays: false))
    }

    /// A task cancelled by an observer of its own dispatch's step: that dispatch finishes with what the
    /// step's observers queue. (The mutation check's program for the admission order.)
    @Test func aDispatchUnderWayFinishesWithWhatItsObserversQueue() async {
        await expectModelHolds(
            Program(
                operations: [
                    .armObserver(store: 0, .cancelTasks(id: "b")),
                    .armObserver(store: 1, .dispatch(Command(tag: 7, touches: [1]))),
                    .startTask(TaskPlan(id: "b", gate: 9, dispatches: Command(tag: 11, touches: [0, 1]))),
                    .proceed(gate: 9),
                ], replays: false))
    }

    /// The move back to the present delivers the held dispatches before what its observers dispatch.
    /// (The mutation check's program for the order of the held dispatches.)
    @Test func heldDispatchesComeBeforeWhatTheMoveBacksObserversDispatch() async {
        await expectModelHolds(
            Program(
                operations: [
                    .dispatch(Command(tag: 1, touches: [2])),
                    .startTask(TaskPlan(id: nil, gate: 3, dispatches: Command(tag: 6, touches: []))),
                    .stepBack,
                    .armObserver(store: 2, .dispatch(Command(tag: 8, touches: [1]))),
                    .proceed(gate: 3),
                    .returnToPresent,
                ], replays: false))
    }

    @Test func aReplayRunsAFollowUpOnce() async {
        await expectModelHolds(
            Program(
                operations: [
                    .dispatch(Command(tag: 11, touches: [0], then: [.dispatch(Command(tag: 12, touches: [0]))]))
                ], factoryStartsTask: false))
    }

    @Test func anEffectOfADroppedStepEndsInTheFile() async {
        await expectModelHolds(
            Program(
                operations: [
                    .dispatch(
                        Command(
                            tag: 8, touches: [1],
                            then: [.effect(TaskPlan(id: "c", gate: 7, dispatches: Command(tag: 9, touches: [])))])),
                    .stepBack,
                    .resumeDiscardingLaterSteps,
                    .proceed(gate: 7),
                ], factoryStartsTask: false))
    }

    @Test func aReplayStartsNoTaskOfAStoreFactory() async {
        await expectModelHolds(Program(operations: [.dispatch(Command(tag: 1, touches: [2]))]))
    }

    @Test func aSecondJournalIsRefused() async {
        await expectModelHolds(
            Program(
                operations: [.attachSecondJournal, .dispatch(Command(tag: 1, touches: [0]))], factoryStartsTask: false))
    }

    @Test func aReplayDoesNotMatchAllWhenAStateIsNotCodable() async {
        await expectModelHolds(
            Program(operations: [.dispatch(Command(tag: 1, touches: [3]))], divergence: 3, factoryStartsTask: false))
    }

    // NB: `aReplaySetsTheStatesOfAStepThatCannotReplay` is a known issue of issue 42 until its fix lands (with F,
    // computed from D, its program meets one): `ComputedStoreRegressionTests.aReplaySetsTheStatesOf…`.

    /// A task's dispatch that waited for a suspension, released while the past is shown, is held before
    /// the dispatches held since, made after it. (Found by the threaded mode: a task's dispatches were
    /// applied out of order.)
    @Test func aDispatchReleasedInThePastKeepsItsPlaceBeforeThoseHeldSince() async {
        await expectModelHolds(
            Program(
                operations: [
                    .dispatch(Command(tag: 1, touches: [0])),
                    .suspend,
                    .startTask(TaskPlan(id: nil, gate: 1, dispatches: Command(tag: 2, touches: [1]))),
                    .proceed(gate: 1),
                    .stepBack,
                    .startTask(TaskPlan(id: nil, gate: 3, dispatches: Command(tag: 3, touches: [1]))),
                    .proceed(gate: 3),
                    .release,
                    .returnToPresent,
                ], replays: false))
    }

    /// A task an observer starts is queued behind the step in order with what the observers dispatch,
    /// with a middleware installed too (it went behind them, where a later observer's cancellation
    /// reached it before it started). Found by the 100,000-program run.
    @Test func anObserversTaskKeepsItsPlaceAmongTheObserversDispatches() async {
        await expectModelHolds(
            Program(
                operations: [
                    .armObserver(
                        store: 1, .startTask(TaskPlan(id: "a", gate: 13, dispatches: Command(tag: 14, touches: [0])))),
                    .armObserver(store: 3, .dispatch(Command(tag: 16, touches: [0, 2, 3]))),
                    .armObserver(store: 2, .cancelTasks(id: "a")),
                    .dispatch(Command(tag: 18, touches: [1, 3])),
                ]))
    }
}
