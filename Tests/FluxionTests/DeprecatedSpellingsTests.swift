import Fluxion
import Testing

/// The spellings renamed in issue 25 still work for one release; each test is deprecated itself,
/// so that calling them builds without warnings.
@Suite(.timeLimit(.minutes(1))) struct DeprecatedSpellingsTests {
    @available(*, deprecated)
    @Test func theAsyncFlushStillWritesAsWaitUntilFlushedDoes() async throws {
        let storage = InMemoryStateStorage()
        let dispatcher = Dispatcher()
        try dispatcher.register(
            NotesStore.self, persistence: Persistence(storage: storage, key: "notes", debounce: .seconds(3600)))
        try dispatcher.dispatch(.addNote, payload: "later")

        await dispatcher.flush()

        let saved = try #require(storage.load(key: "notes"))
        #expect(try unarchive(NotesState.self, from: saved).state.notes == ["later"])
    }
}
