import Fluxion
import Foundation
import Testing

/// A state that is not `Codable` is recorded by its description: a replay cannot compare it, and says so.
@Suite struct JournalReplayIncomparableTests {
    private func makeDiaryDispatcher() throws -> Dispatcher {
        let dispatcher = try makeShelfDispatcher()
        try dispatcher.register(DiaryStore.self)
        return dispatcher
    }

    /// Replays the journal from memory, or from its file.
    private func replay(_ journal: Journal, fromFile: Bool) throws -> (ReplayReport, Dispatcher) {
        let fresh = try makeDiaryDispatcher()
        guard fromFile else { return (try journal.replay(into: fresh), fresh) }
        journal.flush()
        return (try Journal.replay(contentsOf: try #require(journal.fileURL), into: fresh), fresh)
    }

    @Test(arguments: [true, false])
    func aStoreWhoseStateIsNotCodableIsListedAndNothingMatchesAll(fromFile: Bool) throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let recorded = try makeDiaryDispatcher()
        let journal = try Journal(recording: recorded, writingTo: url)
        try recorded.dispatch(.shelve, payload: "Dune")
        try recorded.dispatch(.lockDiary, payload: "x")

        let (report, fresh) = try replay(journal, fromFile: fromFile)

        #expect(report.incomparableStores == ["DiaryStore"])
        #expect(!report.allMatched)
        #expect(report.mismatch == nil)  // the states compared matched
        #expect(report.differingStores.isEmpty)
        #expect(report.replayed == 2)
        #expect(report.description.contains("Not compared, as their states are not Codable: DiaryStore"))
        #expect(try fresh.store(ShelfStore.self).state == recorded.store(ShelfStore.self).state)
        #expect(try fresh.store(DiaryStore.self).state == recorded.store(DiaryStore.self).state)  // replayed
    }

    @Test(arguments: [true, false])
    func aStepThatCannotReplaySetsTheStatesItCanAndListsTheRest(fromFile: Bool) throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let recorded = try makeDiaryDispatcher()
        let journal = try Journal(recording: recorded, writingTo: url)
        try recorded.batch { batch in  // an inline mutation: the batch does not replay
            try batch.dispatch(.lockDiary, payload: "x")
            try batch.mutate(ShelfStore.self) { $0.books.append("Mutated") }
        }

        let (report, fresh) = try replay(journal, fromFile: fromFile)

        #expect(report.applied == 1)
        #expect(report.incomparableStores == ["DiaryStore"])
        #expect(!report.allMatched)
        #expect(report.mismatch == nil)
        #expect(try fresh.store(ShelfStore.self).state.books == ["Mutated"])  // set from the recording
        #expect(try fresh.store(DiaryStore.self).state == Diary())  // left as it was
    }

    @Test func aResumeThatMovedAStoreWhoseStateIsNotCodableReplays() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let recorded = try makeDiaryDispatcher()
        let journal = try Journal(recording: recorded, writingTo: url)
        try recorded.dispatch(.shelve, payload: "Dune")
        try recorded.dispatch(.lockDiary, payload: "x")
        try journal.stepBack()
        journal.resumeDiscardingLaterSteps()
        try recorded.dispatch(.shelve, payload: "Emma")

        let (report, fresh) = try replay(journal, fromFile: true)

        #expect(report.incomparableStores == ["DiaryStore"])
        #expect(report.mismatch == nil)
        #expect(try fresh.store(ShelfStore.self).state == recorded.store(ShelfStore.self).state)
    }

    @Test func aJournalWhoseStoresAreAllCodableStillMatchesAll() throws {
        let recorded = try makeDiaryDispatcher()
        let journal = try Journal(recording: recorded)
        try recorded.dispatch(.shelve, payload: "Dune")

        let (report, _) = try replay(journal, fromFile: false)

        #expect(report.incomparableStores.isEmpty)
        #expect(report.allMatched, "\(report)")
    }
}
