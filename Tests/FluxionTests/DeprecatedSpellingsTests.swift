import Fluxion
import Testing

/// The spellings renamed in issue 25 still work for one release; each test is deprecated itself,
/// so that calling them builds without warnings.
@Suite(.timeLimit(.minutes(10))) struct DeprecatedSpellingsTests {
    /// The async `flush()` is gone: in async code, the obvious call is the blocking one, and compiles.
    @Test func flushInAsyncCodeIsTheBlockingFlush() async throws {
        let storage = InMemoryStateStorage()
        let dispatcher = Dispatcher()
        try dispatcher.register(
            NotesStore.self, persistence: Persistence(storage: storage, key: "notes", debounce: .seconds(3600)))
        try dispatcher.dispatch(.addNote, payload: "later")

        dispatcher.flush()

        let saved = try #require(storage.load(key: "notes"))
        #expect(try unarchive(NotesState.self, from: saved).state.notes == ["later"])
    }
}

extension DeprecatedSpellingsTests {
    @available(*, deprecated)
    @Test func theOldNamesStillDoWhatTheNewOnesDo() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        let suspension = dispatcher.suspend()
        try dispatcher.dispatchExclusively(.shelve, payload: "Dune")
        try dispatcher.dispatchExclusively(AnyAction(name: "journalShelve", payload: "Emma"))
        suspension.release()
        let count = dispatcher.dispatch { dispatcher in (try? dispatcher.store(ShelfStore.self).state.books.count) ?? 0
        }
        #expect(count == 2)

        try journal.stepBack()
        journal.resume()
        #expect(!journal.isTravelling)
        #expect(try dispatcher.store(ShelfStore.self).state.books == ["Dune"])
    }
}
