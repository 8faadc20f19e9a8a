import Fluxion
import Foundation
import Testing
import TodoCore

@Suite struct TodoImporterTests {
    @Test func dispatchesTheTodosOfTheFile() async throws {
        let url = try temporaryFile(#"[{"title": "A"}, {"title": "B", "isDone": true}]"#)
        defer { try? FileManager.default.removeItem(at: url) }
        let test = try TestApp()
        try await TodoImporter.importTodos(from: url, into: test.app.dispatcher)
        #expect(test.app.todos.state.items == [Todo(title: "A"), Todo(title: "B", isDone: true)])
    }

    @Test func aFileThatIsNotAListIsAnErrorThatChangesNothing() async throws {
        let url = try temporaryFile(#"{"title": "A"}"#)
        defer { try? FileManager.default.removeItem(at: url) }
        let test = try TestApp()
        let changes = Recorded<String>()
        let token = test.app.todos.observe { change in changes.append(change.action.name) }
        let error = await #expect(throws: ImportError.self) {
            try await TodoImporter.importTodos(from: url, into: test.app.dispatcher)
        }
        #expect(error.map { "\($0)" }?.contains("not a JSON list of todos") == true)
        #expect(changes.values.isEmpty, "the store rethrew the carried error: the action is rejected, no change")
        #expect(test.app.todos.state.items.isEmpty)
        token.cancel()
    }

    @Test func reportsAMissingFile() async throws {
        let test = try TestApp()
        let url = URL(fileURLWithPath: "/nonexistent/todos.json")
        await #expect(throws: ImportError.unreadable(path: url.path, reason: "no such file")) {
            try await TodoImporter.importTodos(from: url, into: test.app.dispatcher)
        }
    }

    private func temporaryFile(_ contents: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("TodoImport-\(UUID().uuidString).json")
        try Data(contents.utf8).write(to: url)
        return url
    }
}
