import Fluxion
import FluxionInspector
import Foundation
import Testing

/// A session's summary: its steps, actions, stores, effects, errors and what cannot be replayed.
@Suite(.timeLimit(.minutes(10))) struct JournalSummaryTests {
    /// Records a session with every kind of step to a file, and returns the journal, stopped.
    private func recordSession(to url: URL) async throws -> Journal {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.shelve, payload: "Emma")
        try dispatcher.dispatch(.bookmark, payload: Bookmark(page: 3))  // not replayable: not Codable
        try dispatcher.dispatch(.shelve, payload: "Ulysses", error: ShelfError())
        try dispatcher.dispatch(.fetch, payload: true)
        try dispatcher.dispatch(.fetch, payload: false)
        await dispatcher.waitUntilDrained()
        journal.stop()
        return journal
    }

    @Test func summarizesAJournalFile() async throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let journal = try await recordSession(to: url)

        let summary = try JournalSummary(contentsOf: url)

        #expect(summary.stepCount == 6)
        #expect(summary.resumeCount == 0)
        let names = ["inspectorShelve", "inspectorFetch", "inspectorBookmark"]
        #expect(summary.actions.map(\.name) == names && summary.actions.map(\.count) == [3, 2, 1])
        #expect(summary.storesChanged.map(\.name) == ["ShelfStore", "TallyStore"])
        #expect(summary.storesChanged.map(\.count) == [4, 3])
        #expect(summary.effects.map(\.name) == ["fetch", "failing fetch"])
        #expect(summary.effects.map(\.outcome) == [.finished, .failed("the shelf is full")])
        #expect(summary.stepsWithErrors == [4])
        #expect(summary.stepsNotReplayable == [3, 4])
        let span = try #require(summary.timeSpan)
        let first = try #require(journal.records.first?.time)
        #expect(abs(span.lowerBound.timeIntervalSince(first)) < 0.000_01)  // a file keeps microseconds
        #expect(summary == JournalSummary(try Journal.records(contentsOf: url)))
    }

    @Test func printsAShortAccount() async throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        _ = try await recordSession(to: url)

        let lines = String(describing: try JournalSummary(contentsOf: url)).split(separator: "\n").map(String.init)

        #expect(
            lines[0].contains(/^steps: 6, from \d{4}-\d\d-\d\dT[\d:.]+Z to \d{4}-\d\d-\d\dT[\d:.]+Z \(\d+\.\d{3} s\)$/))
        #expect(
            Array(lines.dropFirst()) == [
                "actions:", "  3  inspectorShelve", "  2  inspectorFetch", "  1  inspectorBookmark",
                "stores changed:", "  4  ShelfStore", "  3  TallyStore",
                "effects: 2 (1 finished, 1 failed)",
                "errors: 1 step: #4",
                "not replayable: 2 steps: #3, #4",
                "refused: none",
            ])
    }

    @Test func countsTheRefusalsByError() throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        for title in ["Emma", "Emma", "Ulysses"] {
            #expect(throws: NotOnTheShelf(title: title)) { try dispatcher.dispatch(.lend, payload: title) }
        }
        journal.stop()

        let summary = try JournalSummary(contentsOf: url)

        #expect(summary.stepCount == 1)
        #expect(summary.refusals.map(\.count) == [2, 1])
        let lines = summary.description.split(separator: "\n").suffix(3)
        #expect(
            Array(lines) == [
                "refused: 3", #"  2  NotOnTheShelf(title: "Emma") (thrown)"#,
                #"  1  NotOnTheShelf(title: "Ulysses") (thrown)"#,
            ])
        #expect(summary.refusals == JournalSummary(journal.records, refusals: journal.refusals).refusals)
    }

    @Test func summarizesAnEmptyJournal() throws {
        let journal = try Journal(recording: makeShelfDispatcher())

        let summary = JournalSummary(journal.records)

        #expect(summary.stepCount == 0 && summary.timeSpan == nil)
        let text =
            "steps: 0\nactions: none\nstores changed: none\neffects: none\nerrors: none\nnot replayable: none"
            + "\nrefused: none"
        #expect(summary.description == text)
    }

    @Test func countsTheResumesAfterTimeTravel() throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        for title in ["Dune", "Emma", "Ulysses"] { try dispatcher.dispatch(.shelve, payload: title) }
        try journal.stepBack()
        journal.resumeDiscardingLaterSteps()
        try dispatcher.dispatch(.shelve, payload: "Middlemarch")
        journal.stop()

        let summary = try JournalSummary(contentsOf: url)

        #expect(summary.resumeCount == 1 && summary.stepCount == 4)  // the dropped step is in the file
        #expect(summary.description.hasSuffix("\nresumed after time travel: 1 time"))
    }

    @Test func listsTenStepNumbersAtMost() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        for page in 1...12 { try dispatcher.dispatch(.bookmark, payload: Bookmark(page: page)) }

        let summary = JournalSummary(journal.records)

        #expect(summary.description.contains("\nnot replayable: 12 steps: #1, #2, #3, #4, #5, #6, #7, #8, #9, #10, …"))
    }

    @Test func aFileThatCannotBeReadIsAnError() throws {
        let missing = temporaryURL()
        #expect(throws: JournalError.unreadableFile(path: missing.path, reason: "there is no such file")) {
            try JournalSummary(contentsOf: missing)
        }
    }
}
