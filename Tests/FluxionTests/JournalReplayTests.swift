import Fluxion
import Foundation
import Testing

@Suite struct JournalReplayTests {
    /// Records a session to a file: shelving, a sign-in, a batch, a non-`Codable` payload.
    private func recordSession(to url: URL, drifting: Bool = false) throws -> Dispatcher {
        let dispatcher = try makeShelfDispatcher(drifting: drifting)
        try dispatcher.dispatch(.shelve, payload: "Before the journal")  // the stores do not start empty
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.signIn, payload: Owner(name: "Ada", password: "pw"))
        try dispatcher.batch { batch in
            try batch.dispatch(.shelve, payload: "Emma")
            try batch.dispatch(.shelve, payload: "Ulysses")
        }
        try dispatcher.dispatch(.bookmark, payload: Bookmark(page: 12))
        if drifting {
            try dispatcher.dispatch(.drift)
            try dispatcher.dispatch(.drift)
        }
        journal.stop()
        return dispatcher
    }

    @Test func aRecordedSessionReplaysIntoAFreshDispatcherAndMatches() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let recorded = try recordSession(to: url)

        let fresh = try makeShelfDispatcher()
        let report = try Journal.replay(contentsOf: url, into: fresh)

        #expect(report.allMatched, "\(report)")
        #expect(report.replayed == 3)
        #expect(report.applied == 1)  // the bookmark: not Codable, so its recorded states were set
        #expect(try fresh.store(ShelfStore.self).state == recorded.store(ShelfStore.self).state)
        #expect(try fresh.store(TallyReadingStore.self).state == recorded.store(TallyReadingStore.self).state)
    }

    @Test func theJournalInMemoryReplaysToo() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.signIn, payload: Owner(name: "Ada", password: "pw"))

        let fresh = try makeShelfDispatcher()
        let report = try journal.replay(into: fresh)

        #expect(report.allMatched)
        #expect(try fresh.store(ShelfStore.self).state == dispatcher.store(ShelfStore.self).state)
    }

    @Test func aNonDeterministicHandlerIsCaught() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        _ = try recordSession(to: url, drifting: true)

        let report = try Journal.replay(contentsOf: url, into: try makeShelfDispatcher(drifting: true))

        let mismatch = try #require(report.mismatch)
        #expect(mismatch.store == "DriftStore")
        #expect(mismatch.action == "journalDrift")
        #expect(mismatch.line == 6)
        #expect(mismatch.diff == ["count: 1 → 3"])
        #expect("\(report)".contains("step #5 (journalDrift, line 6): DriftStore differs from the recording"))
    }

    @Test func aFileThatIsNotAJournalIsRefused() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(#"{"todos": []}"#.utf8).write(to: url)

        #expect(
            throws: JournalError.notAJournal(path: url.path, reason: "its first line is not a Fluxion journal header")
        ) {
            try Journal.replay(contentsOf: url, into: makeShelfDispatcher())
        }
        #expect(throws: JournalError.unreadableFile(path: "/nonexistent.jsonl", reason: "there is no such file")) {
            try Journal.replay(contentsOf: URL(fileURLWithPath: "/nonexistent.jsonl"), into: makeShelfDispatcher())
        }
    }

    @Test func aNewerVersionIsRefused() throws {
        let url = try journalFile([#"{"kind":"header","format":"fluxion-journal","version":9}"#])
        defer { try? FileManager.default.removeItem(at: url) }

        #expect(throws: JournalError.notAJournal(path: url.path, reason: "it has version 9; this Fluxion reads 4")) {
            try Journal.replay(contentsOf: url, into: makeShelfDispatcher())
        }
    }

    @Test func aTruncatedLastLineIsNamed() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        _ = try recordSession(to: url)
        let text = try String(contentsOf: url, encoding: .utf8)
        try Data(text.dropLast(20).utf8).write(to: url)

        #expect(throws: JournalError.corruptLine(line: 5, reason: "it is cut short (written when the app stopped?)")) {
            try Journal.replay(contentsOf: url, into: makeShelfDispatcher())
        }
        let report = try Journal.replay(contentsOf: url, into: makeShelfDispatcher(), skippingErrors: true)
        #expect(report.skipped.count == 1)
        #expect(report.replayed == 3)
    }

    @Test func eachBadLineIsAnErrorNamingItsLine() throws {
        let url = try journalFile([
            #"{"kind":"header","format":"fluxion-journal","version":1}"#,
            #"not json"#,
            #"{"kind":"action","sequence":1,"action":{"name":"nobodyHandlesThis","description":"x","payload":null},"replayable":true}"#,
            #"{"kind":"action","sequence":2,"action":{"name":"journalShelve","description":"x","payload":42},"replayable":true}"#,
            #"{"kind":"action","sequence":3,"action":{"name":"journalShelve","description":"x"},"replayable":false,"changes":[{"store":"GoneStore","after":{},"diff":[]}]}"#,
            #"{"kind":"action","sequence":4,"action":{"name":"journalShelve","description":"x","payload":"Dune"},"replayable":true}"#,
        ])
        defer { try? FileManager.default.removeItem(at: url) }

        #expect(throws: JournalError.corruptLine(line: 2, reason: "it is not a journal line")) {
            try Journal.replay(contentsOf: url, into: makeShelfDispatcher())
        }
        let fresh = try makeShelfDispatcher()
        let report = try Journal.replay(contentsOf: url, into: fresh, skippingErrors: true)
        #expect(report.skipped.count == 4)
        #expect(report.skipped[1] == .unknownAction(line: 3, name: "nobodyHandlesThis"))
        guard case .undecodableValue(line: 4, name: "journalShelve", _) = report.skipped[2] else {
            Issue.record("expected an undecodable payload on line 4, got \(report.skipped[2])")
            return
        }
        #expect(report.skipped[3] == .unknownStore(line: 5, name: "GoneStore"))
        #expect(report.replayed == 1)
        #expect(try fresh.store(ShelfStore.self).state.books == ["Dune"])
    }

    private func journalFile(_ lines: [String]) throws -> URL {
        let url = temporaryJournalURL()
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url
    }
}
