import Testing

/// Programs the model shrank for refusals in the journal (issue 45.1): each failed on the first version of
/// it, and is now the regression test of its fix.
@Suite struct RefusalRegressionTests {
    /// Seed 20261144: an action that waits for store 2, unregistered, is refused by the dispatcher. A replay
    /// registers every store, so the refusal does not repeat there: only a handler's refusal replays.
    @Test func aRefusalForAStoreNotRegisteredIsNotReplayed() async {
        await expectModelHolds(
            Program(operations: [.unregister(store: 2), .dispatch(Command(tag: 16, touches: [], waits: true))]))
    }

    /// A batch whose inline mutation of computed store 6 is refused before it is staged: the batch's recorded
    /// actions do not repeat that, so a failed batch does not replay.
    @Test func aFailedBatchIsNotReplayed() async {
        await expectModelHolds(
            Program(operations: [
                .batchOf([.dispatch(Command(tag: 1, touches: [0])), .mutate(store: 6, .append, tag: 800)])
            ]))
    }
}
