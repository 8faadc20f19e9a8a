import Fluxion
import Foundation
import Testing

@testable import FluxionInspector

/// The journal viewer's page: what it embeds, how, and that it needs nothing from outside.
@Suite(.timeLimit(.minutes(10))) struct JournalViewerTests {
    @Test func embedsTheStepsInMemoryAsJournalLines() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.shelve, payload: "Emma")

        let lines = try objects(ofLines: embeddedLines(of: journal.viewer()))

        #expect(lines.map { $0["kind"] as? String } == ["header", "action", "action"])
        #expect((lines.last?["action"] as? [String: Any])?["payload"] as? String == "Emma")
        let firstChange = (lines[1]["changes"] as? [[String: Any]])?.first
        #expect(firstChange?["before"] != nil)  // the states before, for the page to start from
    }

    @Test func aJournalWithAFileShowsTheFileRedacted() throws {
        let url = temporaryURL()
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

    /// The page draws the axis in step order only when every time is a whole second (a file written before
    /// version 3): a journal file's times now have their fractions, so its effects are drawn on the time axis.
    @Test func aFileWithSubSecondTimesIsNotDrawnInStepOrder() throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        for title in ["Dune", "Emma", "Ulysses"] { try dispatcher.dispatch(.shelve, payload: title) }
        journal.flush()

        let page = try Journal.viewer(contentsOf: url)

        let times = try embeddedLines(of: page).matches(of: /"time":"([^"]*)"/).map { String($0.output.1) }
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let read = times.compactMap { format.date(from: $0) }
        #expect(read.count == 4 && times.allSatisfy { $0.contains(".") })
        #expect(times.contains { !$0.hasSuffix(".000000Z") }, "\(times)")
        #expect(page.contains("j.coarse = times.length > 1 && times.every((t) => t % 1000 === 0);"))
        #expect(page.contains(#"axisMode = J.coarse ? "steps" : "time";"#))
        journal.stop()
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
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.shelve, payload: "a <b> & \"c\" {{NAME}}")
        try dispatcher.dispatch(.bookmark, payload: Bookmark(page: 3))
        journal.stop()

        let page = try Journal.viewer(contentsOf: url)

        #expect(try embeddedLines(of: page) == String(contentsOf: url, encoding: .utf8))
        #expect(page.contains("<title>\(url.lastPathComponent) · Fluxion journal</title>"))
    }

    @Test func aFileThatIsNotAJournalIsRefused() throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("{\"hello\": 1}\n".utf8).write(to: url)

        let reason = "its first line is not a Fluxion journal header"
        let notAJournal = JournalError.notAJournal(path: url.path, reason: reason)
        #expect(throws: notAJournal) { try Journal.viewer(contentsOf: url) }
        let missing = temporaryURL()
        #expect(throws: JournalError.unreadableFile(path: missing.path, reason: "there is no such file")) {
            try Journal.viewer(contentsOf: missing)
        }
    }

    @Test func escapesTheJournalsNameForHTML() throws {
        let page = JournalViewerPage.html(embedding: Data(), name: #"a<b>&"c"'{{JOURNAL}}.jsonl"#)

        let escaped = "a&lt;b&gt;&amp;&quot;c&quot;&#39;{{JOURNAL}}.jsonl"
        #expect(page.contains("<title>\(escaped) · Fluxion journal</title>"))
        #expect(page.contains(#"data-name="\#(escaped)""#))
        #expect(try embeddedLines(of: page).isEmpty)  // a placeholder in the name is text, not a slot
    }

    /// The journal, as it prints, prints optional values plainly: `nil`, not `Optional(0)` (issue 34.5).
    @Test func printsOptionalValuesPlainly() throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.score, payload: 0)
        try dispatcher.dispatch(.score, payload: nil)
        journal.flush()

        #expect(!journal.viewer().contains("Optional("))
        #expect(try !Journal.viewer(contentsOf: url).contains("Optional("))
        journal.stop()
    }
}
