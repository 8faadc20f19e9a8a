import Foundation
import Testing

/// `--trace FILE`: the run's performance trace, as Trace Event JSON, through the built `todo`.
@Suite(.serialized, .timeLimit(.minutes(10))) struct TodoTraceTests {
    /// The complete events of the trace file at `path`.
    private func events(in sandbox: TodoSandbox, _ path: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: sandbox.path(path)))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        return events.filter { $0["ph"] as? String == "X" }
    }

    @Test func writesEachHandlerRunOfTheCommand() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }

        let run = try await sandbox.run("add", "Buy", "milk", "--trace", sandbox.path("trace.json"))

        #expect(run.status == 0, "\(run)")
        let events = try events(in: sandbox, "trace.json")
        let adding = events.filter { ($0["args"] as? [String: Any])?["action"] as? String == "addTodo" }
        // NB: three stores handle `addTodo`: one span each, inside the action's span.
        let handlers = adding.filter { $0["cat"] as? String == "handler" }.compactMap { $0["name"] as? String }
        #expect(handlers.sorted() == ["HistoryStore", "StatsStore", "TodoStore"])
        #expect(adding.filter { $0["cat"] as? String == "action" }.count == 1)
        #expect(adding.contains { $0["cat"] as? String == "observer" })  // the list view, and persistence
    }

    @Test func writesTheTraceOfAnInteractiveSessionAtItsEnd() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }

        let run = try await sandbox.run(
            ["--interactive", "--trace", sandbox.path("session.json")], input: "add A\nadd B\ndone 1\nundo\nquit\n")

        #expect(run.status == 0, "\(run)")
        let actions = try events(in: sandbox, "session.json").filter { $0["cat"] as? String == "action" }
        let names = actions.compactMap { $0["name"] as? String }
        #expect(names.filter { $0 == "addTodo" }.count == 2)
        #expect(names.contains("completeTodo") && names.contains("undo"))
    }

    @Test func aFileThatIsNotATraceIsLeftAlone() async throws {
        let sandbox = try TodoSandbox()
        defer { sandbox.remove() }
        try sandbox.write("keep me\n", to: "notes.txt")

        let run = try await sandbox.run("add", "milk", "--trace", sandbox.path("notes.txt"))

        #expect(run.status == 1)
        #expect(
            run.errors.contains("cannot write the trace to \(sandbox.path("notes.txt")): it is not a performance trace")
        )
        #expect(try sandbox.contents(of: "notes.txt") == "keep me\n")
    }
}
