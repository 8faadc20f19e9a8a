import Fluxion
import TodoCore

/// A ``TodoApp`` over an in-memory storage, with the persistence errors it reported.
final class TestApp: Sendable {
    let storage: InMemoryStateStorage
    let app: TodoApp
    let errors = Recorded<PersistenceError>()

    init(storage: InMemoryStateStorage = InMemoryStateStorage()) throws {
        self.storage = storage
        let errors = errors
        app = try TodoApp(storage: storage, key: "todos", onPersistenceError: { errors.append($0) })
    }

    /// Dispatches an `addTodo` for each title.
    func add(_ titles: String...) throws {
        for title in titles { try app.dispatcher.dispatch(.addTodo, payload: title) }
    }

    var titles: [String] { app.todos.state.items.map(\.title) }
}
