import Foundation
import Testing

@testable import Fluxion

/// The journal viewer's page: what it embeds, how, and that it needs nothing from outside.
@Suite(.timeLimit(.minutes(1))) struct JournalViewerTests {
    /// The text of the page's `<script id="journal">` element, with `\u003c` read back as `<`.
    private func embeddedLines(of page: String) throws -> String {
        let start = try #require(page.range(of: #"<script type="application/x-ndjson" id="journal""#))
        let open = try #require(page[start.upperBound...].firstIndex(of: ">"))
        let end = try #require(page[open...].range(of: "</script>"))
        return page[page.index(after: open)..<end.lowerBound].replacingOccurrences(of: #"\u003c"#, with: "<")
    }

    @Test func embedsTheStepsInMemoryAsJournalLines() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.shelve, payload: "Emma")

        let lines = try embeddedLines(of: journal.viewer()).split(separator: "\n").map(String.init)

        #expect(lines.count == 3)
        let decoded = JournalLine.decode(lines.joined(separator: "\n")).map { try? $0.line.get() }
        #expect(decoded.map { $0?.kind } == [.header, .action, .action])
        #expect(decoded.last??.action?.payload == .string("Emma"))
        #expect(decoded[1]?.changes?.first?.before != nil)  // the states before, for the page to start from
    }

    @Test func aJournalWithAFileShowsTheFileRedacted() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, capacity: 1, writingTo: url, redactingKeys: ["password"])
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.signIn, payload: Owner(name: "Ada", password: "secret"))

        let page = journal.viewer()

        #expect(!page.contains("secret"))
        #expect(page.contains(#""payload":"Dune""#))  // a step memory no longer holds
        journal.stop()
    }

    @Test func writesTimesToTheMicrosecond() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")

        let lines = try embeddedLines(of: journal.viewer())

        #expect(lines.contains(/"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z"/))
    }

    /// The page reads the lines of the version a journal writes, and says so of a newer one.
    @Test func thePageKnowsTheVersionAJournalWrites() {
        #expect(JournalViewerPage.template.contains("if (j.version > \(JournalLine.version)) {"))
        #expect(JournalViewerPage.template.contains("this viewer knows version \(JournalLine.version)`"))
    }

    /// The page draws the axis in step order only when every time is a whole second (a file written before
    /// version 3): a journal file's times now have their fractions, so its effects are drawn on the time axis.
    @Test func aFileWithSubSecondTimesIsNotDrawnInStepOrder() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        for title in ["Dune", "Emma", "Ulysses"] { try dispatcher.dispatch(.shelve, payload: title) }
        journal.flush()

        let page = try Journal.viewer(contentsOf: url)

        let times = try embeddedLines(of: page).matches(of: /"time":"([^"]*)"/).map { String($0.output.1) }
        let read = times.compactMap(JournalLine.time(parsing:))
        #expect(read.count == 4 && times.allSatisfy { $0.contains(".") })
        #expect(read.contains { $0.timeIntervalSince1970 != $0.timeIntervalSince1970.rounded() }, "\(times)")
        #expect(page.contains("j.coarse = times.length > 1 && times.every((t) => t % 1000 === 0);"))
        #expect(page.contains(#"axisMode = J.coarse ? "steps" : "time";"#))
    }

    @Test func escapesAClosingScriptTagInAPayload() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        let payload = "</script><script>alert(1)</script><!-- <SCRIPT"
        try dispatcher.dispatch(.shelve, payload: payload)

        let page = journal.viewer()

        #expect(page.components(separatedBy: "</script>").count - 1 == 2)  // the page's own two elements
        #expect(!page.contains("<!-- <SCRIPT"))
        #expect(try embeddedLines(of: page).contains(payload))
    }

    @Test func showsAnEmptyJournal() throws {
        let journal = try Journal(recording: makeShelfDispatcher())

        let page = journal.viewer()

        #expect(try embeddedLines(of: page).split(separator: "\n").count == 1)  // the header alone
        #expect(!page.contains("{{"))
    }

    @Test func embedsAJournalFileAsItIs() async throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.shelve, payload: "a <b> & \"c\"")
        try dispatcher.dispatch(.bookmark, payload: Bookmark(page: 3))
        journal.stop()

        let page = try Journal.viewer(contentsOf: url)

        #expect(try embeddedLines(of: page) == String(contentsOf: url, encoding: .utf8))
        #expect(page.contains("<title>\(url.lastPathComponent) · Fluxion journal</title>"))
    }

    @Test func aFileThatIsNotAJournalIsRefused() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("{\"hello\": 1}\n".utf8).write(to: url)

        let reason = "its first line is not a Fluxion journal header"
        let notAJournal = JournalError.notAJournal(path: url.path, reason: reason)
        #expect(throws: notAJournal) { try Journal.viewer(contentsOf: url) }
        let missing = temporaryJournalURL()
        #expect(throws: JournalError.unreadableFile(path: missing.path, reason: "there is no such file")) {
            try Journal.viewer(contentsOf: missing)
        }
    }

    @Test func escapesTheJournalsNameForHTML() {
        let page = JournalViewerPage.html(embedding: Data(), name: #"a<b>&"c"'.jsonl"#)

        #expect(page.contains("<title>a&lt;b&gt;&amp;&quot;c&quot;&#39;.jsonl · Fluxion journal</title>"))
        #expect(page.contains(#"data-name="a&lt;b&gt;&amp;&quot;c&quot;&#39;.jsonl""#))
    }

    @Test func asksForNothingOverTheNetwork() {
        let page = JournalViewerPage.template

        #expect(page.contains(#"content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline"#))
        #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("//cdn"))
        #expect(!page.contains(" src=") && !page.contains("@import") && !page.contains("url("))
        #expect(page.components(separatedBy: "{{JOURNAL}}").count == 2)
    }

    @Test func writesThePageForItsOwnerOnly() throws {
        let journal = try Journal(recording: makeShelfDispatcher())
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: url) }

        try journal.writeViewer(to: url)

        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let page = try String(contentsOf: url, encoding: .utf8)
        #expect(page.hasPrefix("<!doctype html>") && page.hasSuffix("</html>"))
    }

    @Test func writingAPageReplacesOnlyAnEarlierPage() throws {
        let journal = try Journal(recording: makeShelfDispatcher())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("session.html")
        let notes = folder.appendingPathComponent("notes.txt")
        let link = folder.appendingPathComponent("link.html")
        try Data("keep me".utf8).write(to: notes)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: notes)

        try journal.writeViewer(to: page)
        try journal.writeViewer(to: page)  // an earlier page is replaced

        for kept in [folder, notes, link] {
            #expect(throws: JournalError.self) { try journal.writeViewer(to: kept) }
        }
        #expect(try String(contentsOf: notes, encoding: .utf8) == "keep me")
        #expect(FileManager.default.fileExists(atPath: page.path))
        let listed = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(listed == ["link.html", "notes.txt", "session.html"])
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
}
