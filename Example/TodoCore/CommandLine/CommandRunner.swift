import Foundation

/// Runs commands against the app: dispatches the actions, or reads what a query asks for.
///
/// A command that changes something returns `nil`: its outcome is shown by
/// the observers (``ListView``), not here. A query returns the text to print.
public struct CommandRunner: Sendable {
    private let app: TodoApp

    /// Creates a runner for `app`.
    public init(app: TodoApp) {
        self.app = app
    }

    /// Runs `command`.
    ///
    /// - Returns: The text to print, for `list`, `stats` and `help`; `nil` otherwise.
    /// - Throws: What the dispatch throws: a ``TodoError`` or an ``ImportError``.
    public func run(_ command: Command) async throws -> String? {
        let dispatcher = app.dispatcher
        switch command {
        case .add(let title):
            try dispatcher.dispatch(.addTodo, payload: title)
        case .done(let number):
            try dispatcher.dispatch(.completeTodo, payload: number)
        case .undo:
            try dispatcher.dispatch(.undo)
        case .filter(let filter):
            try dispatcher.dispatch(.setFilter, payload: filter)
        case .clearCompleted:
            try dispatcher.dispatch(.clearCompleted)
        case .importFile(let path):
            // An async action creator: the import runs in its own task; its outcome is one action.
            try await dispatcher.dispatchTask { dispatcher in
                try await TodoImporter.importTodos(from: URL(fileURLWithPath: path), into: dispatcher)
            }.value
        case .list:
            return TodoRenderer.list(app.todos.state, filter: app.filter.state)
        case .stats:
            return TodoRenderer.stats(app.stats.state)
        case .help:
            return HelpText.text
        case .quit:
            break
        }
        return nil
    }
}
