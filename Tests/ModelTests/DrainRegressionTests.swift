import Testing

/// Programs of issue 43 the model runs as regression tests: each failed on the code before its fix.
@Suite struct DrainRegressionTests {
    /// A plain task, started by task 1, awaits the drain while task 3 runs: once task 1 has ended, it still
    /// waits for task 3 (before the fix, it counted itself as a tracked task and returned at once).
    @Test func aPlainTaskAwaitingTheDrainWaitsForAnotherTaskOnceItsOwnHasEnded() async {
        await expectModelHolds(
            Program(
                operations: [
                    .startTask(
                        TaskPlan(
                            id: "a", gate: 1, dispatches: nil,
                            child: ChildPlan(gate: 2, dispatches: Command(tag: 1, touches: [0]), drains: true))),
                    .startTask(TaskPlan(id: "b", gate: 3, dispatches: nil)),
                    .proceed(gate: 2),
                    .proceed(gate: 1),
                    .proceed(gate: 3),
                ], replays: false))
    }
}
