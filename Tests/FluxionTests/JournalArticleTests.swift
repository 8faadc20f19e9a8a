import Fluxion
import Foundation
import Testing

/// The code of "Recording, Replaying and Time Travel", run.
@Suite struct JournalArticleTests {
    @Test func theArticleExamplesRun() throws {
        let sessionURL = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: sessionURL) }
        do {
            // article-record-begin
            let dispatcher = Dispatcher()
            try dispatcher.register(ShelfStore.self)
            let journal = try Journal(recording: dispatcher, capacity: 500)

            try dispatcher.dispatch(.shelve, payload: "Dune")
            print(journal.records.last!)
            // #1 journalShelve(Dune)
            //   ShelfStore.books[0]: + "Dune"
            // article-record-end
            #expect(journal.records.last?.description == "#1 journalShelve(Dune)\n  ShelfStore.books[0]: + \"Dune\"")
            journal.stop()
            try record(dispatcher, to: sessionURL)
        }
        // article-replay-begin
        let fresh = Dispatcher()
        try fresh.register(ShelfStore.self)
        let report = try Journal.replay(contentsOf: sessionURL, into: fresh)
        print(report.allMatched ? "deterministic" : "\(report.mismatch!)")
        // article-replay-end
        #expect(report.allMatched)
        #expect(try fresh.store(ShelfStore.self).state.books == ["Dune", "Emma"])

        let journal = try Journal(recording: fresh)
        try fresh.dispatch(.shelve, payload: "Ulysses")
        try fresh.dispatch(.shelve, payload: "Walden")
        // article-travel-begin
        try journal.stepBack()  // the stores as they were after the step before
        try journal.travel(to: 0)  // as they were before the first step in memory
        try journal.returnToPresent()  // back to the last step
        // article-travel-end
        #expect(try fresh.store(ShelfStore.self).state.books == ["Dune", "Emma", "Ulysses", "Walden"])
    }

    @Test func theArticlesFailureReplaysWithItsError() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(LoadingStore.self)
        let journal = try Journal(recording: dispatcher)
        // article-failures-begin
        dispatcher.registerReplayableError(LoadError.self)  // enum LoadError: Error, Codable
        try dispatcher.dispatch(.booksLoaded, result: .failure(LoadError.offline))
        // article-failures-end
        let fresh = Dispatcher()
        try fresh.register(LoadingStore.self)
        fresh.registerReplayableError(LoadError.self)

        let report = try journal.replay(into: fresh)

        #expect(report.replayed == 1 && report.allMatched, "\(report)")
        #expect(try fresh.store(LoadingStore.self).state.retries == 1)
    }

    private func record(_ dispatcher: Dispatcher, to sessionURL: URL) throws {
        // article-file-begin
        let journal = try Journal(recording: dispatcher, writingTo: sessionURL, redactingKeys: ["password"])
        journal.onWriteError = { error in print("journal: \(error)") }
        // article-file-end
        try dispatcher.dispatch(.shelve, payload: "Emma")
        journal.stop()
    }

    @Test func theArticleShowsTheCodeVerbatim() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let article = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Sources/Fluxion/Fluxion.docc/RecordingReplayingAndTimeTravel.md"),
            encoding: .utf8)
        for marker in ["record", "file", "replay", "travel", "failures"] {
            let snippet = try #require(
                source.components(separatedBy: "// article-\(marker)-begin\n").last?
                    .components(separatedBy: "// article-\(marker)-end").first)
            let indent = String(snippet.prefix { $0 == " " })
            let code = snippet.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.dropFirst(indent.count)
            }.joined(separator: "\n")
            #expect(article.contains(code), "\(marker)")
        }
    }
}
