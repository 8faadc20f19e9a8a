import Fluxion
import Foundation
import Observation
import Testing

@Suite struct JournalTimeTravelTests {
    /// A dispatcher with three shelving steps recorded: Dune, Emma, then a sign-in.
    private func makeJournal() throws -> (Dispatcher, Journal) {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.shelve, payload: "Emma")
        try dispatcher.dispatch(.signIn, payload: Owner(name: "Ada", password: "pw"))
        return (dispatcher, journal)
    }

    @Test func movesTheStoresBackAndForth() throws {
        let (dispatcher, journal) = try makeJournal()
        let shelf = try dispatcher.store(ShelfStore.self)
        let reading = try dispatcher.store(TallyReadingStore.self)
        #expect(journal.steps == 0...3)

        try journal.stepBack()
        #expect(journal.step == 2)
        #expect(shelf.state == Shelf(books: ["Dune", "Emma"]))
        try journal.travel(to: 0)
        #expect(shelf.state == Shelf())
        #expect(reading.state.count == 0)
        try journal.stepForward()
        #expect(shelf.state.books == ["Dune"])
        #expect(reading.state.count == 1)
        try journal.returnToPresent()
        #expect(shelf.state == Shelf(books: ["Dune", "Emma"], owner: Owner(name: "Ada", password: "pw")))
        #expect(reading.state.count == 2)
        #expect(!journal.isTravelling)
    }

    @Test func observersHearEachMoveAsATravelAndHandlersDoNotRun() throws {
        let (dispatcher, journal) = try makeJournal()
        let shelf = try dispatcher.store(ShelfStore.self)
        let heard = LockedBox<[String]>([])
        let token = shelf.observe { change in
            heard.withValue { $0.append("\(change.action.name) \(change.newState.books)") }
        }

        try journal.travel(to: 1)
        try journal.returnToPresent()

        #expect(heard.value == [#"Fluxion.travel ["Dune"]"#, #"Fluxion.travel ["Dune", "Emma"]"#])
        #expect(journal.records.count == 3)  // moves are not steps
        token.cancel()
    }

    @Test func observationTrackersHearAMove() throws {
        let (dispatcher, journal) = try makeJournal()
        let shelf = try dispatcher.store(ShelfStore.self)
        let told = LockedBox(0)
        withObservationTracking {
            _ = shelf.state
        } onChange: {
            told.withValue { $0 += 1 }
        }

        try journal.stepBack()

        #expect(told.value == 1)
    }

    @Test func actionsAreRefusedInThePastUntilResumedOrReturned() throws {
        let (dispatcher, journal) = try makeJournal()
        try journal.travel(to: 1)

        #expect(throws: JournalError.travelling(action: "journalShelve", step: 1)) {
            try dispatcher.dispatch(.shelve, payload: "Ulysses")
        }
        #expect(try dispatcher.store(ShelfStore.self).state.books == ["Dune"])

        journal.resumeDiscardingLaterSteps()
        try dispatcher.dispatch(.shelve, payload: "Ulysses")
        #expect(try dispatcher.store(ShelfStore.self).state.books == ["Dune", "Ulysses"])
        #expect(journal.records.map(\.sequence) == [1, 2])  // the future was dropped; numbering goes on from 1
        #expect(journal.records.map(\.action) == ["journalShelve(Dune)", "journalShelve(Ulysses)"])
    }

    @Test func aStepOutsideTheJournalIsAnError() throws {
        let (_, journal) = try makeJournal()
        #expect(throws: JournalError.noSuchStep(7, range: 0...3)) { try journal.travel(to: 7) }
        #expect(throws: JournalError.noSuchStep(-1, range: 0...3)) { try journal.travel(to: -1) }
    }

    @Test func aResumedRecordingReplaysFromItsFile() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.shelve, payload: "Emma")
        try journal.stepBack()
        journal.resumeDiscardingLaterSteps()
        try dispatcher.dispatch(.shelve, payload: "Ulysses")
        journal.stop()

        let fresh = try makeShelfDispatcher()
        let report = try Journal.replay(contentsOf: url, into: fresh)

        #expect(report.allMatched, "\(report)")
        #expect(try fresh.store(ShelfStore.self).state.books == ["Dune", "Ulysses"])
        let history = try Journal.records(contentsOf: url).map(\.action)
        #expect(
            history == ["journalShelve(Dune)", "journalShelve(Emma)", "resumed from step 1", "journalShelve(Ulysses)"])
    }
}
