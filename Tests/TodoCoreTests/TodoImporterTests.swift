import Fluxion
import FluxionTesting
import Foundation
import Testing
import TodoCore

@Suite(.timeLimit(.minutes(10))) struct TodoImporterTests {
    /// A test dispatcher over the app's own dispatcher, checking its four stores.
    private func makeTest() throws -> TestDispatcher {
        try TestApp().test
    }

    @Test func dispatchesTheTodosOfTheFile() async throws {
        let url = try temporaryFile(#"[{"title": "A"}, {"title": "B", "isDone": true}]"#)
        defer { try? FileManager.default.removeItem(at: url) }
        let test = try makeTest()
        let imported = [Todo(title: "A"), Todo(title: "B", isDone: true)]

        try await TodoImporter.importTodos(from: url, into: test.dispatcher)

        try await test.receive(.importFinished) {
            $0.modify(TodoStore.self) { $0.items = imported }
            $0.modify(StatsStore.self) { $0 = Stats(counting: imported) }
            $0.modify(HistoryStore.self) { $0.record(TodoList(items: imported)) }
        }
        await test.finish()
    }

    @Test func aFileThatIsNotAListIsAnErrorThatChangesNothing() async throws {
        let url = try temporaryFile(#"{"title": "A"}"#)
        defer { try? FileManager.default.removeItem(at: url) }
        let test = try makeTest()

        let error = await #expect(throws: ImportError.self) {
            try await TodoImporter.importTodos(from: url, into: test.dispatcher)
        }

        #expect(error.map { "\($0)" }?.contains("not a JSON list of todos") == true)
        // The store rethrew the carried error: the action was rejected, so there is nothing to receive.
        await test.finish()
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
