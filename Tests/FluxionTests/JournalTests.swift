import Fluxion
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct JournalTests {
    @Test func recordsEachActionWithItsChanges() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)

        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.signIn, payload: Owner(name: "Ada", password: "secret"))

        let records = journal.records
        #expect(records.map(\.sequence) == [1, 2])
        #expect(records.map(\.name) == ["journalShelve", "journalSignIn"])
        #expect(records[0].changes.map(\.store) == ["ShelfStore", "TallyReadingStore"])
        #expect(records[0].changes[1].diff == ["count: 0 → 1"])
        #expect(records[0].isReplayable)
        #expect(records[1].description.contains(#"ShelfStore.owner.name: "" → "Ada""#))
    }

    @Test func recordsQueuedActionsAndBatchesAsSteps() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        let token = try dispatcher.store(TallyReadingStore.self).observe { change in
            if change.newState.count == 1 { try? dispatcher.dispatch(.shelve, payload: "queued") }
        }

        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.batch { batch in
            try batch.dispatch(.shelve, payload: "Emma")
            try batch.mutate(ShelfStore.self) { $0.owner.name = "Bo" }
        }

        let records = journal.records
        #expect(records.map(\.name) == ["journalShelve", "journalShelve", AnyAction.batchName])
        #expect(records[1].action == "journalShelve(queued)")
        #expect(!records[2].isReplayable)  // an inline mutation's closure cannot be recorded
        #expect(records[2].changes.first?.diff.contains(#"owner.name: "" → "Bo""#) == true)
        token.cancel()
    }

    @Test func aRejectedActionIsNotRecorded() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)

        #expect(throws: FluxionError.self) { try dispatcher.dispatch(AnyAction(name: "journalShelve", payload: 3)) }

        #expect(journal.records.isEmpty)
    }

    @Test func keepsTheNewestStepsUpToItsCapacity() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, capacity: 3)

        for book in ["A", "B", "C", "D", "E"] { try dispatcher.dispatch(.shelve, payload: book) }

        #expect(journal.records.map(\.sequence) == [3, 4, 5])
        #expect(journal.steps == 2...5)
    }

    @Test func stopsRecordingWhenStoppedOrReleased() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "A")
        journal.stop()
        try dispatcher.dispatch(.shelve, payload: "B")
        #expect(journal.records.count == 1)

        weak var released: Journal?
        do {
            let other = try Journal(recording: dispatcher)
            released = other
        }
        #expect(released == nil)
        try dispatcher.dispatch(.shelve, payload: "C")  // no journal left in the chain
    }

    @Test func aSecondJournalIsRefusedNamingTheFirstsFile() throws {
        let (url, refused) = (temporaryJournalURL(), temporaryJournalURL())
        defer { for file in [url, refused] { try? FileManager.default.removeItem(at: file) } }
        let dispatcher = try makeShelfDispatcher()
        let first = try Journal(recording: dispatcher, writingTo: url)

        let error = #expect(throws: JournalError.self) { try Journal(recording: dispatcher, writingTo: refused) }
        #expect(throws: JournalError.alreadyRecorded(by: url.path)) { try Journal(recording: dispatcher) }

        #expect(error == .alreadyRecorded(by: url.path))
        #expect(
            error?.description
                == "the dispatcher is recorded already, by the journal writing to \(url.path); a dispatcher has one "
                + "journal at a time: stop that one (stop(), or let it go) first")
        #expect(!FileManager.default.fileExists(atPath: refused.path))  // the refused journal opened no file
        try dispatcher.dispatch(.shelve, payload: "Dune")
        #expect(first.records.map(\.name) == ["journalShelve"])  // the first records on
    }

    @Test func aSecondJournalIsRefusedSayingTheFirstRecordsInMemory() throws {
        let dispatcher = try makeShelfDispatcher()
        let first = try Journal(recording: dispatcher)

        let error = #expect(throws: JournalError.self) { try Journal(recording: dispatcher) }

        #expect(error == .alreadyRecorded(by: nil))
        #expect(
            error?.description
                == "the dispatcher is recorded already, by a journal that records in memory; a dispatcher has one "
                + "journal at a time: stop that one (stop(), or let it go) first")
        withExtendedLifetime(first) {}
    }

    @Test func aNewJournalAttachesOnceTheFirstHasStoppedOrWasLetGo() throws {
        let dispatcher = try makeShelfDispatcher()
        let first = try Journal(recording: dispatcher)
        first.stop()

        let second = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        #expect(first.records.isEmpty)
        #expect(second.records.map(\.name) == ["journalShelve"])

        weak var released: Journal?
        do {
            second.stop()
            let third = try Journal(recording: dispatcher)
            released = third
        }
        #expect(released == nil)
        let fourth = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Emma")
        #expect(fourth.records.map(\.action) == ["journalShelve(Emma)"])
    }

    @Test func writesEveryStepToAFileOnlyItsOwnerCanRead() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)

        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.bookmark, payload: Bookmark(page: 7))
        journal.flush()

        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].contains(#""format":"fluxion-journal""#))
        #expect(lines[1].contains(#""payload":"Dune""#))
        #expect(lines[1].contains(#""before":{"books":[]"#))  // a store's first appearance
        #expect(lines[2].contains(#""replayable":false"#))
        #expect(!lines[2].contains(#""before""#))
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let records = try Journal.records(contentsOf: url)
        #expect(records.map(\.description) == journal.records.map(\.description))
    }

    @Test func redactedKeysNeverReachTheFile() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url, redactingKeys: ["password"])

        try dispatcher.dispatch(.signIn, payload: Owner(name: "Ada", password: "hunter2"))
        journal.flush()

        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(!text.contains("hunter2"))
        #expect(text.contains("‹redacted›"))
        #expect(text.contains("Ada"))
    }

    @Test func aFileThatCannotBeCreatedIsAnError() {
        let url = URL(fileURLWithPath: "/nonexistent-directory/journal.jsonl")
        #expect(throws: JournalError.unreadableFile(path: url.path, reason: "it cannot be created")) {
            try Journal(recording: Dispatcher(), writingTo: url)
        }
    }
}
