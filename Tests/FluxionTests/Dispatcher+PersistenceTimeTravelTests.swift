import Fluxion
import Foundation
import Testing

/// Persistence never saves a state time travel set: the archive keeps the present.
@Suite(.timeLimit(.minutes(10))) struct DispatcherPersistenceTimeTravelTests: NotesPersistenceFixture {
    let scheduler = ManualScheduler()
    let storage = ScriptedStorage()
    let errors = Recorder<PersistenceError>()

    /// Two notes, saved; the journal records both.
    private func makeSession() throws -> (Dispatcher, Journal) {
        let dispatcher = try dispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.addNote, payload: "a")
        try dispatcher.dispatch(.addNote, payload: "b")
        dispatcher.flush()
        return (dispatcher, journal)
    }

    private var archived: NotesState? {
        get throws { try storage.archives["notes"].map { try unarchive(NotesState.self, from: $0).state } }
    }

    @Test func leavingWhileThePastIsShownKeepsThePresentInTheArchive() throws {
        let (dispatcher, journal) = try makeSession()

        try journal.travel(to: 0)
        scheduler.advance(by: .seconds(60))
        dispatcher.flush()
        journal.stop()
        dispatcher.flush()

        #expect(try archived == NotesState(notes: ["a", "b"], revision: 2))
        #expect(try dispatcher.store(NotesStore.self).state.notes.isEmpty)  // the stores show the past
    }

    @Test func returningToThePresentKeepsIt() throws {
        let (dispatcher, journal) = try makeSession()

        try journal.stepBack()
        try journal.returnToPresent()
        dispatcher.flush()

        #expect(try archived == NotesState(notes: ["a", "b"], revision: 2))
    }

    @Test func resumingSavesThePastAsTheNewPresent() throws {
        let (dispatcher, journal) = try makeSession()

        try journal.stepBack()
        journal.resumeDiscardingLaterSteps()
        dispatcher.flush()

        #expect(try archived == NotesState(notes: ["a"], revision: 1))
    }

    @Test func anActionAfterStoppingInThePastIsSaved() throws {
        let (dispatcher, journal) = try makeSession()

        try journal.stepBack()
        journal.stop()
        try dispatcher.dispatch(.addNote, payload: "c")
        dispatcher.flush()

        #expect(try archived == NotesState(notes: ["a", "c"], revision: 2))
    }
}
