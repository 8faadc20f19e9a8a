import Fluxion
import Foundation
import Testing

/// With `skippingErrors: true`, replay never throws for a bad line: it skips the line and lists its error.
@Suite struct JournalReplaySkippingTests {
    private func journalFile(_ lines: [String]) throws -> URL {
        let url = temporaryJournalURL()
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url
    }

    @Test func aStoreTheDispatcherLacksIsSkippedAndListedNotThrown() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = try makeShelfDispatcher()
        try recorder.register(LampStore.self)
        let journal = try Journal(recording: recorder, writingTo: url)
        try recorder.dispatch(.shelve, payload: "Dune")
        try recorder.dispatch(.toggleLamp)
        try recorder.dispatch(.signIn, payload: Owner(name: "Ada", password: "pw"))
        try recorder.dispatch(.toggleLamp)
        journal.stop()

        let fresh = try makeShelfDispatcher()  // no LampStore
        let report = try Journal.replay(contentsOf: url, into: fresh, skippingErrors: true)

        #expect(
            report.skipped == [.unknownStore(line: 3, name: "LampStore"), .unknownStore(line: 5, name: "LampStore")])
        #expect(report.replayed == 2)
        #expect(report.allMatched, "\(report)")
        #expect(report.differingStores.isEmpty)
        #expect(try fresh.store(ShelfStore.self).state == recorder.store(ShelfStore.self).state)
        #expect(throws: JournalError.unknownStore(line: 3, name: "LampStore")) {
            try Journal.replay(contentsOf: url, into: makeShelfDispatcher())
        }
    }

    @Test func everyKindOfBadLineIsSkippedAndListed() throws {
        let url = try journalFile([
            #"{"kind":"header","format":"fluxion-journal","version":2}"#,
            #"{"kind":"action","sequence":1,"action":{"name":"journalShelve","description":"x","payload":"Dune"},"replayable":true,"changes":[{"store":"ShelfStore","before":{"books":[],"owner":{"name":"","password":""}},"after":{"books":["Dune"],"owner":{"name":"","password":""}},"diff":[]}]}"#,
            #"not json"#,
            #"{"kind":"header","format":"fluxion-journal","version":2}"#,
            #"{"kind":"action","sequence":2,"action":{"name":"nobodyHandlesThis","description":"x","payload":null},"replayable":true}"#,
            #"{"kind":"action","sequence":3,"action":{"name":"journalShelve","description":"x","payload":42},"replayable":true}"#,
            #"{"kind":"action","sequence":4,"action":{"name":"journalShelve","description":"x","payload":"Emma"},"replayable":true,"changes":[{"store":"GoneStore","before":{},"after":{},"diff":[]}]}"#,
            #"{"kind":"action","sequence":5,"action":{"name":"journalShelve","description":"x"},"replayable":false,"changes":[{"store":"ShelfStore","diff":[]}]}"#,
            #"{"kind":"resume","sequence":1,"changes":[{"store":"GoneStore","after":{},"diff":[]}]}"#,
            #"{"kind":"action","sequence":2,"action":{"name":"journalShelve","description":"x","payload":"Ulysses"},"replayable":true}"#,
            #"{"kind":"action","sequence":3,"action":{"name":"journalShelve","description":"x"},"replayable":false,"changes":[{"store":"ShelfStore","after":{"books":"not a list"},"diff":[]}]}"#,
        ])
        defer { try? FileManager.default.removeItem(at: url) }

        let fresh = try makeShelfDispatcher()
        let report = try Journal.replay(contentsOf: url, into: fresh, skippingErrors: true)

        #expect(report.skipped.count == 8, "\(report.skipped)")
        #expect(report.skipped.first == .corruptLine(line: 3, reason: "it is not a journal line"))
        #expect(report.skipped.dropFirst().first == .corruptLine(line: 4, reason: "a second header"))
        #expect(report.skipped.contains(.unknownAction(line: 5, name: "nobodyHandlesThis")))
        #expect(report.skipped.contains(.unknownStore(line: 7, name: "GoneStore")))
        #expect(report.skipped.contains(.notReplayable(line: 8, name: "journalShelve")))
        #expect(report.skipped.contains(.unknownStore(line: 9, name: "GoneStore")))
        #expect(report.skipped.contains { if case .undecodableValue(line: 6, _, _) = $0 { true } else { false } })
        #expect(report.skipped.contains { if case .undecodableValue(line: 11, _, _) = $0 { true } else { false } })
        #expect(try fresh.store(ShelfStore.self).state.books == ["Dune", "Ulysses"])
    }
}
