import Testing

/// Programs of issue 43's cancellation and shutdown cases: each failed on the code before its fix (the first
/// as the model shrank it from seed 20261281), and is now its regression test.
@Suite struct CancellationRegressionTests {
    /// `effects.cancel(id:)` after an effect asked for earlier in the same handler: its work never runs.
    @Test func anEffectCancelledLaterInItsStepNeverRunsItsWork() async {
        await expectModelHolds(
            Program(operations: [
                .dispatchBypassingSuspension(
                    Command(
                        tag: 9, touches: [2],
                        then: [
                            .effect(
                                TaskPlan(id: "c", gate: 9, dispatches: Command(tag: 10, touches: [], throwsIn: 3))),
                            .cancel("c"),
                        ]))
            ]))
    }

    /// `effects.cancel(id:)` in a later action of the same batch.
    @Test func anEffectCancelledByALaterActionOfItsBatchNeverRunsItsWork() async {
        await expectModelHolds(
            Program(operations: [
                .batch([
                    Command(tag: 1, touches: [0], then: [.effect(TaskPlan(id: "a", gate: 1, dispatches: nil))]),
                    Command(tag: 2, touches: [1], then: [.cancel("a")]),
                ])
            ]))
    }

    /// `effects.cancel(id:)` in an action an observer of the step dispatched: the same turn.
    @Test func anEffectCancelledLaterInItsTurnNeverRunsItsWork() async {
        await expectModelHolds(
            Program(operations: [
                .armObserver(store: 0, .dispatch(Command(tag: 3, touches: [1], then: [.cancel("a")]))),
                .dispatch(
                    Command(tag: 1, touches: [0], then: [.effect(TaskPlan(id: "a", gate: 1, dispatches: nil))])),
            ]))
    }

    /// `cancelTasks(id:)` from another thread while the handler runs, after it asked for the effect.
    @Test func aCancellationFromAnotherThreadReachesTheEffectTheRunningStepAskedFor() async {
        await expectModelHolds(
            Program(operations: [
                .dispatch(
                    Command(
                        tag: 1, touches: [0],
                        then: [
                            .effect(TaskPlan(id: "a", gate: 1, dispatches: Command(tag: 2, touches: [1]))),
                            .cancelFromAnotherThread("a"),
                        ]))
            ]))
    }

    /// `shutdown()` while another thread's action is in flight: the poll it asks for never runs, and
    /// `shutdown()` returns (it hung before the fix).
    @Test func shutdownEndsThePollOfTheActionInFlight() async {
        await expectModelHolds(
            Program(operations: [
                .startTask(TaskPlan(id: "b", gate: 1, dispatches: Command(tag: 1, touches: [2]))),
                .shutdown(
                    inFlight: Command(
                        tag: 2, touches: [0, 1],
                        then: [
                            .effect(TaskPlan(id: "a", gate: 3, dispatches: nil)),
                            .dispatch(
                                Command(
                                    tag: 3, touches: [3], then: [.effect(TaskPlan(id: "c", gate: 5, dispatches: nil))])),
                        ])),
            ]))
    }

    /// A task that dispatched while the past was shown, then ended, is reached by a later cancellation.
    @Test func aCancellationReachesATaskThatEndedThroughItsHeldDispatch() async {
        await expectModelHolds(
            Program(
                operations: [
                    .startTask(TaskPlan(id: "a", gate: 1, dispatches: Command(tag: 2, touches: [0]))),
                    .dispatch(Command(tag: 1, touches: [1])),
                    .stepBack,
                    .proceed(gate: 1),
                    .cancelTasks(id: "a"),
                    .returnToPresent,
                ], replays: false))
    }
}
