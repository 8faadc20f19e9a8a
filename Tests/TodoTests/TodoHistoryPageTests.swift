import Foundation
import Testing

/// `history --html PAGE`: the journal viewer of a recorded file, or of the session, through the built `todo`.
@Suite(.serialized, .timeLimit(.minutes(10))) struct TodoHistoryPageTests {
    @Test func writesThePageOfARecordedJournal() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        _ = try await sandbox.run(
            ["--interactive", "--record", sandbox.path("session.jsonl")], input: "add Buy </script> milk\nquit\n")

        let run = try await sandbox.run("history", sandbox.path("session.jsonl"), "--html", sandbox.path("page.html"))

        #expect(run.status == 0, "\(run)")
        #expect(run.output == "wrote \(sandbox.path("page.html")): open it in a browser\n")
        let page = try sandbox.contents(of: "page.html")
        #expect(page.hasPrefix("<!doctype html>"))
        #expect(page.contains(#""payload":"Buy \u003c/script> milk""#))
        let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.path("page.html"))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func writesThePageOfTheSessionInAnInteractiveSession() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }

        let run = try await sandbox.run(
            ["--interactive"], input: "add A\ndone 1\nhistory --html \(sandbox.path("now.html"))\nquit\n")

        #expect(run.status == 0, "\(run)")
        let page = try sandbox.contents(of: "now.html")
        #expect(page.contains(#""description":"completeTodo(1)""#))
        #expect(page.contains(#"data-name="journal in memory""#))
    }

    @Test func aFileThatIsNotAJournalWritesNoPage() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        try sandbox.write("[]\n", to: "list.json")

        let run = try await sandbox.run("history", sandbox.path("list.json"), "--html", sandbox.path("page.html"))

        #expect(run.status == 1)
        #expect(run.errors.contains("is not a Fluxion journal: its first line is not a Fluxion journal header"))
        #expect(!sandbox.exists(sandbox.path("page.html")))
    }

    @Test func theOptionGoesWithHistoryAlone() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }

        let run = try await sandbox.run("add", "milk", "--html", sandbox.path("page.html"))

        #expect(run.status == 2)
        #expect(run.errors.hasPrefix("todo: 'add' does not take the argument '--html'\n"))
    }
}
