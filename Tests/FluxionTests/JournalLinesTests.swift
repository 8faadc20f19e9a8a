import Foundation
import Testing

@testable import Fluxion

/// What a journal gives the tools that show it (FluxionInspector's viewer): its steps in memory as a
/// file's lines, and a file's bytes once its header is checked.
@Suite(.timeLimit(.minutes(10))) struct JournalLinesTests {
    @Test func writesTheStepsInMemoryAsJournalLines() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.shelve, payload: "Emma")

        let decoded = JournalLine.decode(journal.linesInMemory()).map { try? $0.line.get() }

        #expect(decoded.map { $0?.kind } == [.header, .action, .action])
        #expect(decoded.first??.version == Journal.fileFormatVersion)
        #expect(decoded.last??.action?.payload == .string("Emma"))
        #expect(decoded[1]?.changes?.first?.before != nil)  // the states before, for a viewer to start from
    }

    @Test func writesTimesToTheMicrosecond() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")

        #expect(journal.linesInMemory().contains(/"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z"/))
    }

    @Test func placesEachEffectAmongTheStepsByTime() async throws {
        let service = SearchService()
        let (dispatcher, _, _) = try makeSearchDispatcher(service: service)
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.findProducts, payload: "mil")
        await service.respond(to: "mil", with: ["milk"])
        await dispatcher.waitUntilDrained()

        let lines = JournalLine.decode(journal.linesInMemory()).compactMap { try? $0.line.get() }

        #expect(lines.map(\.kind) == [.header, .action, .effect, .action, .effect])
        #expect(lines.map { $0.effect?.event } == [nil, nil, "started", nil, "finished"])
    }

    @Test func readsAJournalFileAsItIs() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        journal.stop()
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"kind\":\"act".utf8))  // cut short: shown, not refused
        try handle.close()

        #expect(try Journal.contentsOfFile(at: url) == Data(contentsOf: url))
    }

    @Test func aFileThatIsNotAJournalIsRefused() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }

        try Data("{\"hello\": 1}\n".utf8).write(to: url)
        let reason = "its first line is not a Fluxion journal header"
        #expect(throws: JournalError.notAJournal(path: url.path, reason: reason)) {
            try Journal.contentsOfFile(at: url)
        }
        try Data([0xFF, 0xFE, 0x0A]).write(to: url)
        #expect(throws: JournalError.notAJournal(path: url.path, reason: "it is not UTF-8 text")) {
            try Journal.contentsOfFile(at: url)
        }
        let newer = #"{"kind":"header","format":"fluxion-journal","version":99}"# + "\n"
        try Data(newer.utf8).write(to: url)
        let version = "it has version 99; this Fluxion reads \(Journal.fileFormatVersion)"
        #expect(throws: JournalError.notAJournal(path: url.path, reason: version)) {
            try Journal.contentsOfFile(at: url)
        }
        let missing = temporaryJournalURL()
        #expect(throws: JournalError.unreadableFile(path: missing.path, reason: "there is no such file")) {
            try Journal.contentsOfFile(at: missing)
        }
    }
}
