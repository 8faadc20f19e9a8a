import Testing

/// Programs the model shrank for "one owner per archive" (issue 43): each failed on the code before
/// the fix, and is now the regression test of its fix.
@Suite struct ArchiveOwnerRegressionTests {
    /// A second dispatcher registered a persisted store on the storage the program's dispatcher
    /// persists to, and nothing refused it: two live dispatchers then saved over each other's archive.
    @Test func aSecondDispatcherOnTheProgramsStorageIsRefused() async {
        await expectModelHolds(
            Program(operations: [.dispatch(Command(tag: 1, touches: [0])), .openSecondDispatcher, .flush]))
    }
}
