import Testing

/// Programs of issue 43 the model runs as regression tests: each failed before its fix (the first in Fluxion; the
/// next two in the harness's close, which waited for the tasks to settle before it released the suspensions; the
/// last in the model, which ran a dispatch once shutdown had begun).
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

    /// Seed 20261132, shrunk: the plain task at gate 6, started by task 5, awaits the drain while a suspension
    /// is held with actions waiting for its release; the program ends so. Its drain still waits ("returns once
    /// no action is running and none is waiting for a release"), and `cancelAllTasks()` does not end it (Swift
    /// does not cancel a plain `Task`): the harness's close hung until it released the suspensions first.
    @Test func aPlainTaskAwaitingTheDrainWhileActionsWaitForAReleaseReturnsOnceTheProgramCloses() async {
        await expectModelHolds(
            Program(operations: [
                .unregister(store: 4),
                .dispatch(
                    Command(
                        tag: 1, touches: [0, 1],
                        then: [
                            .effect(
                                TaskPlan(
                                    id: "b", gate: 1,
                                    dispatches: Command(
                                        tag: 1, touches: [0, 1, 2, 3],
                                        then: [
                                            .effect(
                                                TaskPlan(
                                                    id: "a", gate: 3, dispatches: Command(tag: 1, touches: [2, 3])))
                                        ], carriesError: true)))
                        ])),
                .travel(to: 0),
                .startTask(
                    TaskPlan(
                        id: "a", gate: 5, dispatches: Command(tag: 4, touches: [1], then: [.cancel("c")]),
                        child: ChildPlan(
                            gate: 6, dispatches: Command(tag: 5, touches: [0, 3], readsIn: 2, reusesEffects: true),
                            drains: true),
                        lingers: true)),
                .dispatch(
                    Command(tag: 6, touches: [0, 1, 2], then: [.effect(TaskPlan(id: "b", gate: 7, dispatches: nil))])),
                .batchOf([.mutate(store: 2, .append, tag: 800)]),
                .suspend,
                .startTask(
                    TaskPlan(
                        id: nil, gate: 9,
                        dispatches: Command(tag: 7, touches: [], then: [.cancel("c")], carriesError: true))),
                .armObserver(store: 4, .stepBack),
                .proceed(gate: 5),
                .stepBack,
                .dispatch(
                    Command(
                        tag: 8, touches: [0, 1, 2, 3],
                        then: [.dispatch(Command(tag: 8, touches: [1, 2, 3], edit: .removeLast))])),
                .proceed(gate: 9),
                .proceed(gate: 6),
                .proceed(gate: 1),
                .proceed(gate: -5),
                .cancelTasks(id: "b"),
                .startTask(
                    TaskPlan(
                        id: "c", cancelInFlight: true, gate: 11, dispatches: Command(tag: 10, touches: [0, 1, 3]),
                        lingers: true)),
                .cancelTasks(id: "b"),
                .suspend,
                .dispatch(
                    Command(
                        tag: 11, touches: [2],
                        then: [.effect(TaskPlan(id: "a", gate: 13, dispatches: nil)), .cancel("b")])),
                .dispatchBypassingSuspension(
                    Command(
                        tag: 12, touches: [2],
                        then: [
                            .effect(
                                TaskPlan(
                                    id: "c", cancelInFlight: true, gate: 15,
                                    dispatches: Command(tag: 12, touches: [1, 3])))
                        ])),
                .release,
                .returnToPresent,
                .proceed(gate: 11),
            ]))
    }

    /// Seed 20261314, shrunk: the same end by another way — the plain task at gate 10, started by task 9, awaits
    /// the drain while one of two suspensions is still held, and the action dispatched at the first waits.
    @Test func aPlainTaskAwaitingTheDrainWhileOneOfTwoSuspensionsIsHeldReturnsOnceTheProgramCloses() async {
        await expectModelHolds(
            Program(operations: [
                .startTask(
                    TaskPlan(id: nil, gate: 1, dispatches: Command(tag: 1, touches: [0, 1, 3], edit: .removeLast))),
                .armMiddleware(.startTask(TaskPlan(id: "b", gate: 3, dispatches: Command(tag: 2, touches: [1, 2])))),
                .suspend,
                .dispatch(Command(tag: 3, touches: [0, 2])),
                .startTask(
                    TaskPlan(
                        id: nil, gate: 5,
                        dispatches: Command(
                            tag: 4, touches: [0, 1, 3], readsIn: 1, then: [.cancelFromAnotherThread("c")]))),
                .suspend,
                .unregister(store: 2),
                .armMiddleware(.throwAfterNext),
                .cancelTasks(id: "b"),
                .release,
                .dispatch(
                    Command(
                        tag: 5, touches: [0, 2, 3],
                        then: [
                            .effect(
                                TaskPlan(id: "b", gate: 7, dispatches: Command(tag: 5, touches: [0, 1, 2, 3])))
                        ], carriesError: true)),
                .unregister(store: 3),
                .proceed(gate: 1),
                .startTask(
                    TaskPlan(
                        id: "a", gate: 9,
                        dispatches: Command(
                            tag: 7, touches: [], readsIn: 1,
                            then: [
                                .effect(TaskPlan(id: "c", gate: 11, dispatches: nil)),
                                .effect(TaskPlan(id: "a", gate: 13, dispatches: nil, lingers: true)),
                            ], reusesEffects: true),
                        child: ChildPlan(gate: 10, dispatches: Command(tag: 8, touches: []), drains: true))),
                .dispatch(
                    Command(
                        tag: 9, touches: [2, 3],
                        then: [
                            .dispatch(
                                Command(
                                    tag: 9, touches: [1], readsIn: 1,
                                    then: [
                                        .effect(
                                            TaskPlan(
                                                id: "a", cancelInFlight: true, gate: 15,
                                                dispatches: Command(tag: 9, touches: [0], throwsIn: 1))),
                                        .cancel("b"),
                                    ], reusesEffects: true)),
                            .effect(
                                TaskPlan(
                                    id: "a", gate: 17,
                                    dispatches: Command(
                                        tag: 11, touches: [], readsIn: 3, throwsIn: 3, carriesError: true))),
                            .cancel("b"),
                        ])),
                .dispatch(Command(tag: 13, touches: [0, 1, 2], edit: .removeLast, carriesError: true)),
                .startTask(
                    TaskPlan(
                        id: "b", cancelInFlight: true, gate: 19,
                        dispatches: Command(
                            tag: 14, touches: [0, 2],
                            then: [
                                .dispatch(Command(tag: 14, touches: [1, 2])),
                                .effect(
                                    TaskPlan(id: "b", cancelInFlight: true, gate: 21, dispatches: nil, lingers: true)),
                            ]))),
                .dispatch(
                    Command(
                        tag: 16, touches: [0, 1, 2, 3], edit: .clear, throwsIn: 1,
                        then: [
                            .effect(
                                TaskPlan(
                                    id: "b", gate: 23,
                                    dispatches: Command(
                                        tag: 16, touches: [0, 3], waits: true,
                                        then: [
                                            .effect(
                                                TaskPlan(
                                                    id: "a", gate: 25,
                                                    dispatches: Command(tag: 16, touches: [1, 3], throwsIn: 1),
                                                    child: ChildPlan(
                                                        gate: 26, dispatches: Command(tag: 17, touches: [0, 1, 2]))))
                                        ], carriesError: true),
                                    child: ChildPlan(
                                        gate: 24, dispatches: Command(tag: 19, touches: [0, 1, 3], throwsIn: 1))
                                )),
                            .cancel("a"),
                        ])),
                .proceed(gate: 9),
                .proceed(gate: 10),
                .armObserver(store: 7, .read),
                .startTask(
                    TaskPlan(
                        id: nil, gate: 27,
                        dispatches: Command(
                            tag: 21, touches: [], waits: true,
                            then: [.dispatch(Command(tag: 21, touches: [0, 1, 3], readsIn: 0, waits: true))],
                            carriesError: true))),
                .register(store: 2),
                .unregister(store: 4),
            ]))
    }

    /// Seed 20263557, shrunk: the plain task at gate 8, whose task 7 has ended, awaits the drain for task 13;
    /// `shutdown()` cancels that one, and the drain returns. Its dispatch then throws `dispatcherShutDown`, as
    /// every dispatch from outside the running turn does once shutdown has begun (the model ran it before
    /// its fix).
    @Test func aPlainTaskWhoseDrainTheShutdownEndsHasItsDispatchRefused() async {
        await expectModelHolds(
            Program(operations: [
                .startTask(
                    TaskPlan(
                        id: "c", gate: 7, dispatches: nil,
                        child: ChildPlan(
                            gate: 8, dispatches: Command(tag: 8, touches: [0, 2, 3], edit: .removeLast), drains: true))),
                .startTask(TaskPlan(id: "a", gate: 13, dispatches: Command(tag: 14, touches: []))),
                .proceed(gate: 8),
                .proceed(gate: 7),
                .shutdown(inFlight: Command(tag: 20, touches: [])),
            ]))
    }

    /// The action "in flight" of a shutdown touches only a store that was unregistered: no handler of it
    /// runs, so it never waits, and returns before shutdown begins; the task its middleware started began
    /// and is cancelled by shutdown. The model took it as in flight, by the command alone, until it asked
    /// which touched stores are registered (the 100,000-program run found both).
    @Test func anActionInFlightThatTouchesOnlyAnUnregisteredStoreEndsBeforeShutdown() async {
        await expectModelHolds(
            Program(operations: [
                .unregister(store: 2),
                .armMiddleware(.startTask(TaskPlan(id: "c", gate: 9, dispatches: nil))),
                .shutdown(inFlight: Command(tag: 18, touches: [2])),
            ]))
        await expectModelHolds(
            Program(operations: [
                .armMiddleware(
                    .startTask(
                        TaskPlan(
                            id: "b", gate: 15, dispatches: Command(tag: 23, touches: [1, 2], carriesError: true)))),
                .unregister(store: 2),
                .shutdown(inFlight: Command(tag: 24, touches: [2])),
            ]))
    }
}
