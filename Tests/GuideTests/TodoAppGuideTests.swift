import Fluxion
import FluxionTesting
import Foundation
import Testing

/// Why an import failed.
enum ImportError: Error, Equatable {
    case unreadable(String)
}

/// Reads and decodes a JSON file of todos off the calling task's thread.
func readTodos(from url: URL) async -> Result<[Todo], ImportError> {
    await Task.detached {
        do {
            return .success(try JSONDecoder().decode([Todo].self, from: Data(contentsOf: url)))
        } catch {
            return .failure(.unreadable(url.lastPathComponent))
        }
    }.value
}

func importTodos(from url: URL, into dispatcher: Dispatcher) async throws {
    // Reads and decodes the file off the calling thread: a Result<[Todo], ImportError>.
    switch await readTodos(from: url) {
    case .success(let todos):
        try dispatcher.dispatch(.importFinished, payload: todos)
    case .failure(let error):
        try dispatcher.dispatch(.importFinished, payload: [], error: error)
    }
}

/// The walkthrough of "Building the Todo App", run step by step.
@Suite(.timeLimit(.minutes(10))) struct TodoAppGuideTests {
    @Test func registerDispatchAndRead() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TodoStore.self)
        try dispatcher.register(FilterStore.self)

        try dispatcher.dispatch(.addTodo, payload: "Buy milk")
        try dispatcher.dispatch(.completeTodo, payload: 1)

        let todos = try dispatcher.store(TodoStore.self)
        print(todos.state.items)  // [Todo(title: "Buy milk", isDone: true)]
        #expect(todos.state.items == [Todo(title: "Buy milk", isDone: true)])

        #expect(throws: TodoError.emptyTitle) { try dispatcher.dispatch(.addTodo, payload: "") }
        let view = ListView(todos: todos, filter: try dispatcher.store(FilterStore.self))
        let heard = Recorder<Int>()
        let token = todos.observe { change in
            print("\(change.action.name): \(change.oldState.items.count) → \(change.newState.items.count) items")
        }
        let witness = todos.observe { change in heard.append(change.newState.items.count) }
        try dispatcher.dispatch(.setFilter, payload: .active)
        try dispatcher.dispatch(.clearCompleted)
        #expect(heard.values == [0])
        token.cancel()
        witness.cancel()
        withExtendedLifetime(view) {}
    }

    @Test func computedAndDerivedStoresFollowTheListAndUndoGoesBack() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TodoStore.self)
        try dispatcher.register(StatsStore.self, computedFrom: TodoStore.self) { todos in
            Stats(counting: todos.items)
        }
        try dispatcher.register(HistoryStore.self, derivedFrom: TodoStore.self) { HistoryStore(tracking: $0) }
        let todos = try dispatcher.store(TodoStore.self)
        let stats = try dispatcher.store(StatsStore.self)

        try dispatcher.dispatch(.addTodo, payload: "Buy milk")
        try dispatcher.dispatch(.addTodo, payload: "Walk the dog")
        try dispatcher.dispatch(.completeTodo, payload: 2)
        #expect(stats.state == Stats(counting: [Todo(title: "Buy milk"), Todo(title: "Walk the dog", isDone: true)]))
        #expect(throws: TodoError.noSuchItem(3)) { try dispatcher.dispatch(.completeTodo, payload: 3) }

        try dispatcher.dispatch(.undo)
        #expect(todos.state.items == [Todo(title: "Buy milk"), Todo(title: "Walk the dog")])
        #expect(stats.state.done == 0)
        try dispatcher.dispatch(.undo)
        try dispatcher.dispatch(.undo)
        #expect(todos.state.items.isEmpty)
        #expect(throws: TodoError.nothingToUndo) { try dispatcher.dispatch(.undo) }
    }

    @Test func theStoresAreSavedAndRestored() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("todo-guide-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let errors = Recorder<String>()
        for title in ["Buy milk", "Walk the dog"] {
            let dispatcher = Dispatcher()
            // article-persist-begin
            let storage = FileStateStorage(directory: directory)
            dispatcher.onPersistenceError = { error in print("todo: \(error)") }

            try dispatcher.register(TodoStore.self, persistence: Persistence(storage: storage, key: "todos"))
            try dispatcher.register(FilterStore.self, persistence: Persistence(storage: storage, key: "todos.filter"))
            try dispatcher.register(StatsStore.self, computedFrom: TodoStore.self) { Stats(counting: $0.items) }
            try dispatcher.register(
                HistoryStore.self, derivedFrom: TodoStore.self,
                persistence: Persistence(storage: storage, key: "todos.history")
            ) { HistoryStore(tracking: $0) }
            // article-persist-end
            dispatcher.onPersistenceError = { error in errors.append("\(error)") }
            try dispatcher.dispatch(.addTodo, payload: title)
            try dispatcher.dispatch(.undo)
            try dispatcher.dispatch(.addTodo, payload: title)
            dispatcher.flush()
        }

        let dispatcher = Dispatcher()
        let storage = FileStateStorage(directory: directory)
        try dispatcher.register(TodoStore.self, persistence: Persistence(storage: storage, key: "todos"))
        #expect(try dispatcher.store(TodoStore.self).state.items.map(\.title) == ["Buy milk", "Walk the dog"])
        #expect(errors.values.isEmpty)
    }

    @Test func anImportReportsSuccessAndFailureOnOneAction() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("todo-import-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"[{"title": "Buy milk", "isDone": false}]"#.utf8).write(to: file)
        let dispatcher = Dispatcher()
        try dispatcher.register(TodoStore.self)

        try await importTodos(from: file, into: dispatcher)
        await #expect(throws: ImportError.unreadable("missing.json")) {
            try await importTodos(
                from: file.deletingLastPathComponent().appendingPathComponent("missing.json"), into: dispatcher)
        }

        #expect(try dispatcher.store(TodoStore.self).state.items == [Todo(title: "Buy milk")])
    }

    @Test func theImportIsAnEffectOfItsActionWhoseErrorReachesOnTaskError() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("todo-import-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"[{"title": "Buy milk", "isDone": false}]"#.utf8).write(to: file)
        let dispatcher = Dispatcher()
        let errors = Recorder<TaskError>()
        dispatcher.onTaskError = { errors.append($0) }
        try dispatcher.register(TodoStore.self)

        try dispatcher.dispatch(.importTodos, payload: file.path)
        await dispatcher.waitUntilDrained()
        try dispatcher.dispatch(.importTodos, payload: file.deletingLastPathComponent().path + "/missing.json")
        await dispatcher.waitUntilDrained()

        #expect(try dispatcher.store(TodoStore.self).state.items == [Todo(title: "Buy milk")])
        #expect(errors.values.map { $0.error as? ImportError } == [.unreadable("missing.json")])
        #expect(errors.values.first?.action == "importTodos")
    }

    @Test func quittingInThePastKeepsThePresentAndTheStatsStartFromIt() async throws {
        let storage = InMemoryStateStorage()
        // article-travel-begin
        let dispatcher = Dispatcher()
        try dispatcher.register(TodoStore.self, persistence: Persistence(storage: storage, key: "todos"))
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.addTodo, payload: "Buy milk")
        try dispatcher.dispatch(.addTodo, payload: "Walk the dog")

        try journal.stepBack()  // the list shows "Buy milk" alone
        await dispatcher.shutdown()  // the app quits here: the present is saved, not the past

        let reopened = Dispatcher()
        try reopened.register(TodoStore.self, persistence: Persistence(storage: storage, key: "todos"))
        try reopened.register(StatsStore.self, computedFrom: TodoStore.self) { Stats(counting: $0.items) }
        let stats = try reopened.store(StatsStore.self).state  // computed from the restored list: total 2
        // article-travel-end
        #expect(try dispatcher.store(TodoStore.self).state.items == [Todo(title: "Buy milk")])
        #expect(try reopened.store(TodoStore.self).state.items.map(\.title) == ["Buy milk", "Walk the dog"])
        #expect(stats.total == 2)
        await reopened.shutdown()
    }

    // article-test-begin
    @Test func completingAnItemCountsItDone() async throws {
        let test = TestDispatcher()
        try test.register(TodoStore.self)
        try test.register(StatsStore.self, computedFrom: TodoStore.self) { Stats(counting: $0.items) }

        try test.dispatch(.addTodo, payload: "Buy milk") {
            $0.modify(TodoStore.self) { $0.items = [Todo(title: "Buy milk")] }
        }  // StatsStore is expected to follow: total 1
        try test.dispatch(.completeTodo, payload: 1) {
            $0.modify(TodoStore.self) { $0.items[0].isDone = true }
        }
        #expect(throws: TodoError.noSuchItem(2)) {
            try test.dispatch(.completeTodo, payload: 2)  // refused: no store changes
        }
        await test.finish()
    }
    // article-test-end

    @Test func theLoggingMiddlewarePrintsEachActionAndItsDiffs() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TodoStore.self)
        try dispatcher.register(StatsStore.self, computedFrom: TodoStore.self) { Stats(counting: $0.items) }
        try dispatcher.dispatch(.addTodo, payload: "Buy milk")
        try dispatcher.dispatch(.addTodo, payload: "Walk the dog")
        let lines = Recorder<String>()
        dispatcher.addMiddleware(LoggingMiddleware { lines.append($0) })

        try dispatcher.dispatch(.completeTodo, payload: 2)

        #expect(
            lines.values.joined(separator: "\n") == """
                ▶ completeTodo(2)
                  TodoStore
                    items[1].isDone: false → true
                  StatsStore
                    done: 0 → 1
                """)
    }

    @Test func aRawNameReachesTheSameHandlers() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TodoStore.self)
        try dispatcher.dispatch(AnyAction(name: "addTodo", payload: "Buy milk"))

        do {
            try dispatcher.dispatch(AnyAction(name: "completeTodo", payload: "two"))
        } catch FluxionError.payloadTypeMismatch(let action, let expected, let actual) {
            print(action, expected, actual)  // completeTodo Int String
        }
        #expect(try dispatcher.store(TodoStore.self).state.items == [Todo(title: "Buy milk")])
    }

    @Test func theArticleShowsThisCode() throws {
        try ArticleCode.expect(
            article: "BuildingTheTodoApp", holdsTheRegionsOf: ["TodoAppGuideModel.swift", "TodoAppGuideTests.swift"],
            named: [
                "model", "actions", "stores", "listView", "stats", "history", "undo", "importEffect",
                "importHandler", "persist", "travel", "test",
            ])
    }
}
