import Fluxion
import Foundation
import Testing

@testable import FluxionInspector

/// `fluxion-inspect`: its arguments, what it prints, and its exit statuses.
@Suite(.timeLimit(.minutes(10))) struct InspectCommandTests {
    /// A journal file of two steps; removed by the caller.
    private func recordJournal() throws -> URL {
        let url = temporaryURL()
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.shelve, payload: "Emma")
        journal.stop()
        return url
    }

    @Test func readsTheArguments() throws {
        let html = try InspectCommand(arguments: ["s.jsonl", "--html", "s.html"])
        #expect(html.journalPath == "s.jsonl" && html.pagePath == "s.html")
        #expect(!html.printsSummary && !html.showsHelp)
        let both = try InspectCommand(arguments: ["--summary", "s.jsonl", "--html", "s.html"])
        #expect(both.printsSummary && both.pagePath == "s.html" && both.journalPath == "s.jsonl")
        let plain = try InspectCommand(arguments: ["s.jsonl"])  // the summary, when nothing else is asked
        #expect(plain.printsSummary && plain.pagePath == nil)
        #expect(try InspectCommand(arguments: ["--help"]).showsHelp)
    }

    @Test func badArgumentsAreUsageErrors() {
        let cases: [([String], String)] = [
            ([], "no journal file given (see --help)"),
            (["--summary"], "no journal file given (see --help)"),
            (["s.jsonl", "--html"], "--html needs the path of the page to write"),
            (["s.jsonl", "--html", "--summary"], "--html needs the path of the page to write"),
            (["s.jsonl", "--html", "a.html", "--html", "b.html"], "--html is given twice"),
            (["s.jsonl", "--json"], "unknown option --json (see --help)"),
            (["a.jsonl", "b.jsonl"], "one journal at a time: a.jsonl and b.jsonl"),
        ]
        for (arguments, message) in cases {
            #expect(throws: InspectCommand.UsageError(message: message), "\(arguments)") {
                try InspectCommand(arguments: arguments)
            }
        }
    }

    @Test func printsTheHelp() {
        let outcome = InspectCommand.outcome(of: ["--help"])

        #expect(outcome == .init(output: InspectCommand.usage + "\n", errorOutput: "", status: 0))
        #expect(InspectCommand.usage.hasPrefix("usage: fluxion-inspect JOURNAL.jsonl"))
    }

    @Test func printsTheSummary() throws {
        let url = try recordJournal()
        defer { try? FileManager.default.removeItem(at: url) }

        let outcome = InspectCommand.outcome(of: [url.path, "--summary"])

        #expect(outcome.status == 0 && outcome.errorOutput.isEmpty)
        let summary = try JournalSummary(contentsOf: url)
        #expect(outcome.output == "\(url.lastPathComponent)\n\(summary)\n")
        #expect(outcome.output.contains("\nsteps: 2, from "))
    }

    @Test func theSummaryShowsEachRefusal() throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        for title in ["Emma", "Ulysses"] { _ = try? dispatcher.dispatch(.lend, payload: title) }
        journal.stop()

        let outcome = InspectCommand.outcome(of: [url.path, "--summary"])

        #expect(outcome.status == 0)
        #expect(
            outcome.output.hasSuffix(
                #"refused: 2\#n  1  NotOnTheShelf(title: "Emma") (thrown)\#n  1  NotOnTheShelf(title: "Ulysses") (thrown)\#n"#
            ))
    }

    @Test func writesThePage() throws {
        let url = try recordJournal()
        let page = temporaryURL(".html")
        defer { for file in [url, page] { try? FileManager.default.removeItem(at: file) } }

        let outcome = InspectCommand.outcome(of: [url.path, "--html", page.path])

        #expect(outcome == .init(output: "wrote \(page.path): open it in a browser\n", errorOutput: "", status: 0))
        #expect(try String(contentsOf: page, encoding: .utf8) == Journal.viewer(contentsOf: url))
    }

    @Test func aMissingOrCorruptJournalExitsWithOne() throws {
        let missing = temporaryURL()
        let outcome = InspectCommand.outcome(of: [missing.path])
        let unreadable = JournalError.unreadableFile(path: missing.path, reason: "there is no such file")
        #expect(outcome == .init(output: "", errorOutput: "fluxion-inspect: \(unreadable)\n", status: 1))

        let corrupt = try recordJournal()
        defer { try? FileManager.default.removeItem(at: corrupt) }
        let handle = try FileHandle(forWritingTo: corrupt)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"kind\": \"act\n".utf8))
        try handle.close()
        let corruptOutcome = InspectCommand.outcome(of: [corrupt.path, "--summary"])
        #expect(corruptOutcome.status == 1 && corruptOutcome.output.isEmpty)
        #expect(corruptOutcome.errorOutput.hasPrefix("fluxion-inspect: ") && corruptOutcome.errorOutput.contains("4"))

        let notAJournal = temporaryURL()
        defer { try? FileManager.default.removeItem(at: notAJournal) }
        try Data("hello\n".utf8).write(to: notAJournal)
        let page = temporaryURL(".html")
        let pageOutcome = InspectCommand.outcome(of: [notAJournal.path, "--html", page.path])
        #expect(pageOutcome.status == 1 && pageOutcome.errorOutput.contains("not a Fluxion journal header"))
        #expect(!FileManager.default.fileExists(atPath: page.path))
    }

    @Test func badArgumentsExitWithTwo() {
        let outcome = InspectCommand.outcome(of: ["--frobnicate"])

        #expect(
            outcome
                == .init(
                    output: "", errorOutput: "fluxion-inspect: unknown option --frobnicate (see --help)\n", status: 2))
    }
}
