import Fluxion
import FluxionTesting
import TodoCore

/// A ``TodoApp`` over an in-memory storage, its four stores checked by a ``TestDispatcher``.
final class TestApp: Sendable {
    let storage: InMemoryStateStorage
    let app: TodoApp
    let test: TestDispatcher
    private let errors = AsyncStream.makeStream(of: PersistenceError.self)

    init(storage: InMemoryStateStorage = InMemoryStateStorage()) throws {
        self.storage = storage
        let reported = errors.continuation
        app = try TodoApp(storage: storage, key: "todos", onPersistenceError: { reported.yield($0) })
        test = TestDispatcher(app.dispatcher)
        try test.track(TodoStore.self)
        try test.track(FilterStore.self)
        try test.track(StatsStore.self)
        try test.track(HistoryStore.self)
    }

    /// Dispatches an `addTodo` for each title, and checks the three stores that follow the list.
    func add(_ titles: String...) throws {
        for title in titles {
            try test.dispatch(.addTodo, payload: title) {
                $0.modify(TodoStore.self) { $0.items.append(Todo(title: title)) }
                $0.modify(StatsStore.self) { $0.total += 1 }
                $0.modify(HistoryStore.self) { $0.record(TodoList(items: self.app.todos.state.items)) }
            }
        }
    }

    var titles: [String] { app.todos.state.items.map(\.title) }

    /// The persistence errors reported so far; call once, at the end of the test.
    func reportedErrors() async -> [PersistenceError] {
        errors.continuation.finish()
        var reported: [PersistenceError] = []
        for await error in errors.stream { reported.append(error) }
        return reported
    }
}
