import Foundation
import Testing

/// Runs the built `todo` executable, as a user would, each test in its own temporary directory.
///
/// One test at a time, each awaiting its processes without holding a thread: on a small machine,
/// many `todo` processes at once would starve the other suites' tasks of the CPU.
@Suite(.serialized, .timeLimit(.minutes(10))) struct TodoCommandLineTests {
    @Test func anAddedItemIsListed() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        let added = try await sandbox.run("add", "Buy milk")
        #expect(added.status == 0, "\(added)")
        #expect(added.output == "1. [ ] Buy milk\n")
        let listed = try await sandbox.run("list")
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.output == "1. [ ] Buy milk\n")
        #expect(listed.errors == "")
    }

    @Test func doneUpdatesTheStats() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        _ = try await sandbox.run("add", "Buy milk")
        _ = try await sandbox.run("add", "Walk", "the", "dog")
        #expect(try await sandbox.run("stats").output == "2 items, 0 done, 2 left\n")
        let done = try await sandbox.run("done", "2")
        #expect(done.status == 0, "\(done)")
        #expect(done.output == "1. [ ] Buy milk\n2. [x] Walk the dog\n")
        #expect(try await sandbox.run("stats").output == "2 items, 1 done, 1 left\n")
    }

    @Test func undoRestoresTheListBeforeTheLastChange() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        _ = try await sandbox.run("add", "Buy milk")
        _ = try await sandbox.run("add", "Walk the dog")
        _ = try await sandbox.run("done", "1")
        #expect(try await sandbox.run("undo").output == "1. [ ] Buy milk\n2. [ ] Walk the dog\n")
        #expect(try await sandbox.run("undo").output == "1. [ ] Buy milk\n")
        #expect(try await sandbox.run("stats").output == "1 item, 0 done, 1 left\n")
        _ = try await sandbox.run("undo")
        let nothing = try await sandbox.run("undo")
        #expect(nothing.status == 1)
        #expect(nothing.errors == "todo: there is nothing to undo\n")
    }

    @Test func stateSurvivesBetweenRunsInTheFileGiven() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        let file = sandbox.path("lists/home.json")
        _ = try await sandbox.run("--file", file, "add", "Buy milk")
        _ = try await sandbox.run("filter", "active", "--file", file)
        // NB: the lock file that keeps two `todo` processes from saving over each other's lists
        #expect(
            sandbox.fileNames(in: "lists") == [".fluxion.lock", "home.filter.json", "home.history.json", "home.json"])
        #expect(sandbox.fileNames() == ["lists"])
        #expect(try sandbox.contents(of: "lists/home.json").contains("Buy milk"))

        let listed = try await sandbox.run("list", "--file=\(file)")
        #expect(listed.output == "1. [ ] Buy milk\n")
        #expect(try await sandbox.run("list").output == "No todos.\n")  // the default file is another list
    }

    @Test func theEnvironmentVariableNamesTheFile() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        let environment = ["TODO_FILE": sandbox.path("env.json")]
        _ = try await sandbox.run("add", "Buy milk", environment: environment)
        #expect(sandbox.fileNames().contains("env.json"))
        #expect(try await sandbox.run("list", environment: environment).output == "1. [ ] Buy milk\n")
        let overridden = try await sandbox.run("list", "--file", sandbox.path("other.json"), environment: environment)
        #expect(overridden.output == "No todos.\n")
    }

    @Test func theDefaultFileIsInThePerUserDataDirectoryNotTheCurrentOne() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        _ = try await sandbox.run("add", "Buy milk")
        #expect(
            sandbox.fileNames(in: sandbox.dataDirectory.path) == [".fluxion.lock", "todos.history.json", "todos.json"])
        #expect(sandbox.fileNames() == [])
        #expect(try sandbox.contents(of: sandbox.dataPath("todos.json")).contains("Buy milk"))
    }

    #if !canImport(Darwin)
    @Test(arguments: ["", "relative/data"])
    func withoutAnAbsoluteXDGDataHomeTheListIsInLocalShare(dataHome: String) async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        let run = try await sandbox.run("add", "Buy milk", environment: ["XDG_DATA_HOME": dataHome])
        #expect(run.status == 0, "\(run)")
        #expect(sandbox.fileNames(in: sandbox.home.path + "/.local/share/fluxion-todo").contains("todos.json"))
        #expect(!sandbox.exists(sandbox.dataHome.path))
        #expect(sandbox.fileNames() == [])
    }
    #endif

    @Test func helpSaysWhereTheListIsKept() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        let help = try await sandbox.run("help")
        #expect(help.output.contains("\nyour list is kept in \(sandbox.dataPath("todos.json"))\n"), "\(help)")
        let file = sandbox.path("lists/home.json")
        #expect(try await sandbox.run("--file", file, "help").output.contains("your list is kept in \(file)\n"))
        let environment = ["TODO_FILE": sandbox.path("env.json")]
        #expect(
            try await sandbox.run("help", environment: environment).output.contains(
                "your list is kept in \(sandbox.path("env.json"))\n"))
        #expect(!sandbox.exists(sandbox.dataDirectory.path), "help creates nothing")
    }

    @Test func aCorruptFileIsReportedKeptAsideAndTheListStartsEmpty() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        try sandbox.write("{not json", to: sandbox.dataPath("todos.json"))
        let listed = try await sandbox.run("list")
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.output == "No todos.\n")
        let aside = try #require(
            sandbox.fileNames(in: sandbox.dataDirectory.path).first { $0.hasPrefix("todos.json.corrupt-") },
            "\(listed)")
        #expect(try sandbox.contents(of: sandbox.dataPath(aside)) == "{not json")
        #expect(listed.errors.hasPrefix("todo: \(sandbox.dataPath("todos.json")) is corrupt"), "\(listed)")
        #expect(listed.errors.contains("kept aside as \(sandbox.dataPath(aside))"), "\(listed)")
        #expect(listed.errors.contains("starting with an empty list"), "\(listed)")

        let added = try await sandbox.run("add", "Buy milk")
        #expect(added.status == 0)
        #expect(added.errors == "")
        #expect(try sandbox.contents(of: sandbox.dataPath(aside)) == "{not json")
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let message: String
        let status: Int32
        var testDescription: String { "todo \(arguments.joined(separator: " "))" }
    }

    @Test(arguments: [
        BadInput(arguments: ["frob"], message: "todo: unknown command 'frob'", status: 2),
        BadInput(arguments: ["done", "99"], message: "todo: there is no item 99", status: 1),
        BadInput(arguments: ["add", ""], message: "todo: a todo needs a title", status: 1),
        BadInput(arguments: ["add", "  "], message: "todo: a todo needs a title", status: 1),
        BadInput(
            arguments: ["filter", "someday"], message: "todo: unknown filter 'someday'; use all, active or completed",
            status: 1),
        BadInput(arguments: ["add"], message: "todo: 'add' needs a title", status: 2),
        BadInput(arguments: ["done"], message: "todo: 'done' needs an item number", status: 2),
        BadInput(arguments: ["done", "two"], message: "todo: 'done' needs an item number, not 'two'", status: 2),
        BadInput(arguments: ["list", "all"], message: "todo: 'list' does not take the argument 'all'", status: 2),
        BadInput(arguments: ["--colour", "list"], message: "todo: unknown option '--colour'", status: 2),
        BadInput(arguments: ["import", "missing.json"], message: "todo: could not import", status: 1),
        BadInput(arguments: ["--file", "todos.txt", "list"], message: "todo: cannot use 'todos.txt'", status: 2),
    ])
    func badInputGetsAMessageAndAnExitStatus(input: BadInput) async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        _ = try await sandbox.run("add", "Buy milk")
        let run = try await sandbox.run(input.arguments)
        #expect(run.exited, "\(run)")
        #expect(run.status == input.status, "\(run)")
        #expect(run.errors.hasPrefix(input.message), "\(run)")
        #expect(run.output == "", "\(run)")
        #expect(try await sandbox.run("list").output == "1. [ ] Buy milk\n")
    }

    @Test func withoutArgumentsOrATerminalItPrintsTheHelp() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        let run = try await sandbox.run()
        #expect(run.status == 0, "\(run)")
        #expect(run.output.hasPrefix("usage: todo"))
        #expect(sandbox.fileNames() == [])
        #expect(!sandbox.exists(sandbox.dataDirectory.path))
        #expect(try await sandbox.run("help").output == run.output)
    }

    @Test func theFilterChoosesTheItemsShown() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        _ = try await sandbox.run("add", "Buy milk")
        _ = try await sandbox.run("add", "Walk the dog")
        _ = try await sandbox.run("done", "1")
        #expect(try await sandbox.run("filter", "active").output == "2. [ ] Walk the dog\n(filter: active; 1 hidden)\n")
        #expect(try await sandbox.run("list").output == "2. [ ] Walk the dog\n(filter: active; 1 hidden)\n")
        #expect(
            try await sandbox.run("filter", "completed").output == "1. [x] Buy milk\n(filter: completed; 1 hidden)\n")
        #expect(try await sandbox.run("filter", "all").output == "1. [x] Buy milk\n2. [ ] Walk the dog\n")
    }

    @Test func clearCompletedRemovesTheItemsDone() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        _ = try await sandbox.run("add", "Buy milk")
        _ = try await sandbox.run("add", "Walk the dog")
        _ = try await sandbox.run("done", "1")
        #expect(try await sandbox.run("clear-completed").output == "1. [ ] Walk the dog\n")
        #expect(try await sandbox.run("undo").output == "1. [x] Buy milk\n2. [ ] Walk the dog\n")
    }

    @Test func importAddsTheTodosOfAFile() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        try sandbox.write(#"[{"title": "Buy milk"}, {"title": "Walk the dog", "isDone": true}]"#, to: "in.json")
        let imported = try await sandbox.run("import", "in.json")
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.output == "1. [ ] Buy milk\n2. [x] Walk the dog\n")
        #expect(try await sandbox.run("stats").output == "2 items, 1 done, 1 left\n")

        try sandbox.write(#"{"title": "Buy milk"}"#, to: "bad.json")
        let rejected = try await sandbox.run("import", "bad.json")
        #expect(rejected.status == 1)
        #expect(rejected.errors.hasPrefix("todo: could not import \(sandbox.path("bad.json")): it is not a JSON list"))
        #expect(try await sandbox.run("undo").output == "No todos.\n")
    }

    @Test func verbosePrintsEachActionAndWhatItChanged() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        let run = try await sandbox.run("--verbose", "add", "Buy milk")
        #expect(run.status == 0)
        #expect(run.output == "1. [ ] Buy milk\n")
        #expect(
            run.errors.hasPrefix(
                """
                ▶ addTodo("Buy milk")
                  TodoStore
                    items[0]: + [ ] Buy milk
                  StatsStore
                    total: 0 → 1

                """), "\(run)")
        let failed = try await sandbox.run("-v", "done", "7")
        #expect(failed.errors == "▶ completeTodo(7)\n  ✗ there is no item 7\ntodo: there is no item 7\n", "\(failed)")
    }

    @Test func theInteractiveModeShowsTheListAfterEachCommand() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        _ = try await sandbox.run("add", "Buy milk")
        let session = try await sandbox.run(
            "--interactive", input: "add \"Walk the dog\"\n\ndone 2\ndone 9\nfrobnicate\nstats\nquit\nadd never\n")
        #expect(session.status == 0, "\(session)")
        #expect(
            session.output == """
                1. [ ] Buy milk
                1. [ ] Buy milk
                2. [ ] Walk the dog
                1. [ ] Buy milk
                2. [x] Walk the dog
                2 items, 1 done, 1 left

                """)
        #expect(session.errors == "todo: there is no item 9\ntodo: unknown command 'frobnicate'\n")
        #expect(try await sandbox.run("list").output == "1. [ ] Buy milk\n2. [x] Walk the dog\n")
    }

    @Test func theInteractiveModeEndsWithItsInput() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        let session = try await sandbox.run("-i", input: "add Buy milk")
        #expect(session.status == 0, "\(session)")
        #expect(session.output == "No todos.\n1. [ ] Buy milk\n")
        #expect(try await sandbox.run("list").output == "1. [ ] Buy milk\n")
    }
}
