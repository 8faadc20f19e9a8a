import Foundation
import Testing

/// `--record`, `history`, `replay`, `back` and `forward`, run through the built `todo` executable.
///
/// One test at a time, as ``TodoCommandLineTests``.
@Suite(.serialized, .timeLimit(.minutes(10))) struct TodoJournalCommandTests {
    private let session = "add Buy milk\nadd Walk the dog\ndone 2\nback\nadd Call mom\nquit\n"

    @Test func aRecordedSessionPrintsItsHistoryAndReplaysToTheSameList() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        _ = try await sandbox.run("add", "Old item")  // the recording starts from a list that is not empty
        let recorded = try await sandbox.run(
            ["--interactive", "--record", sandbox.path("session.jsonl")], input: session)
        #expect(recorded.status == 0, "\(recorded)")
        #expect(recorded.output.contains("at action 2 of 3"))

        let history = try await sandbox.run("history", sandbox.path("session.jsonl"))
        #expect(history.status == 0, "\(history)")
        #expect(history.output.contains("#3 completeTodo(2)\n  TodoStore.items[1].isDone: false → true\n"))
        #expect(history.output.contains("— resumed from step 2; the steps after it were dropped\n"))
        #expect(history.output.contains("#3 addTodo(Call mom)\n  TodoStore.items[3]: + [ ] Call mom\n"))

        let replay = try await sandbox.run("replay", sandbox.path("session.jsonl"))
        #expect(replay.status == 0, "\(replay)")
        #expect(replay.output.contains("All states matched the recording."))
        #expect(
            replay.output.hasSuffix(
                "The final list matches the recording:\n1. [ ] Old item\n2. [ ] Buy milk\n3. [ ] Walk the dog\n4. [ ] Call mom\n"
            ))
    }

    @Test func backAndForwardTravelThroughTheSession() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        let run = try await sandbox.run(
            ["--interactive"], input: "add A\nadd B\nback\nback\nforward\nforward\nforward\nquit\n")
        #expect(run.output.contains("1. [ ] A\nat action 1 of 2\n"), "\(run)")
        #expect(run.output.contains("at action 0 of 2\n"))
        #expect(run.output.contains("1. [ ] A\n2. [ ] B\nat action 2 of 2 (the present)\n"))
        #expect(
            run.errors.contains("cannot step forward: the stores already show the newest step, the present (step 2)"))
    }

    @Test func quittingWhileBackInThePastKeepsThePresentList() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        let run = try await sandbox.run(["--interactive"], input: "add A\nadd B\nback\nback\nquit\n")
        #expect(run.status == 0, "\(run)")

        let list = try await sandbox.run("list")
        #expect(list.output == "1. [ ] A\n2. [ ] B\n", "\(list)")
    }

    @Test func anImportReplaysFromTheJournalWithoutReadingTheFile() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        try sandbox.write(#"[{"title": "Imported", "isDone": false}]"#, to: "todos-to-import.json")
        let recorded = try await sandbox.run(
            ["--interactive", "--record", sandbox.path("session.jsonl")],
            input: "import \(sandbox.path("todos-to-import.json"))\nquit\n")
        #expect(recorded.status == 0, "\(recorded)")
        try FileManager.default.removeItem(atPath: sandbox.path("todos-to-import.json"))

        let history = try await sandbox.run("history", sandbox.path("session.jsonl"))
        #expect(history.output.contains("  ⇢ effect import: finished\n"), "\(history)")
        #expect(history.output.contains("#2 importFinished([[ ] Imported])  ← effect import of #1\n"), "\(history)")
        let replay = try await sandbox.run("replay", sandbox.path("session.jsonl"))
        #expect(replay.status == 0, "\(replay)")
        #expect(replay.output.contains("All states matched the recording."), "\(replay)")
    }

    @Test func aCorruptJournalIsAnErrorNamingItsLine() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        _ = try await sandbox.run(
            ["--interactive", "--record", sandbox.path("session.jsonl")], input: "add A\nadd B\nquit\n")
        let text = try sandbox.contents(of: "session.jsonl")
        try sandbox.write(text.replacingOccurrences(of: #""kind":"action""#, with: #""kind":"actio"#), to: "bad.jsonl")
        try sandbox.write(String(text.dropLast(10)), to: "cut.jsonl")

        let bad = try await sandbox.run("replay", sandbox.path("bad.jsonl"))
        #expect(bad.status == 1, "\(bad)")
        #expect(bad.errors == "todo: line 2 of the journal is corrupt: it is not a journal line\n")
        let cut = try await sandbox.run("history", sandbox.path("cut.jsonl"))
        #expect(cut.status == 1, "\(cut)")
        #expect(
            cut.errors == "todo: line 3 of the journal is corrupt: it is cut short (written when the app stopped?)\n")
        let foreign = try await sandbox.run("replay", sandbox.dataPath("todos.json"))  // the list itself
        #expect(foreign.status == 1)
        #expect(foreign.errors.contains("is not a Fluxion journal: its first line is not a Fluxion journal header"))
    }

    @Test func travellingOutsideAnInteractiveSessionIsAUsageError() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        let back = try await sandbox.run("back")
        #expect(back.status == 2)
        #expect(
            back.errors.hasPrefix(
                "todo: 'back' moves through this session's actions: use it in an interactive session\n"))
    }
}
