import Fluxion
import Foundation

/// Holds the items.
///
/// Its handlers apply ``TodoList``'s rules; a rule that fails throws, so the
/// list stays as it was and the dispatch throws the ``TodoError``.
public final class TodoStore: Store<TodoList>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    /// Creates the store with an empty list; a persisted list replaces it before any action.
    public init() { super.init(initialState: TodoList()) }

    override public class var handlers: HandlerTable<TodoList> {
        HandlerTable()
            .on(.addTodo) { list, action in try list.add(action.payload) }
            .on(.completeTodo) { list, action in try list.complete(action.payload) }
            .on(.clearCompleted) { list, _ in list.clearCompleted() }
            .on(.importTodos, with: .effects) { _, action, effects in
                // An effect: it starts once this action commits; a replay dispatches its outcome instead.
                effects.run(id: "import") { dispatcher in
                    try await TodoImporter.importTodos(from: URL(fileURLWithPath: action.payload), into: dispatcher)
                }
            }
            .on(.importFinished) { list, action in
                if let error = action.error { throw error }
                try list.add(contentsOf: action.payload)
            }
            .route(.undo, to: TodoStore.undo)
    }

    /// Restores the list the history would undo to.
    ///
    /// NB: it reads ``HistoryStore``'s committed state rather than waiting for
    /// it: the history waits for this store (to see the list after each
    /// action), so waiting back would be a cycle. The history changes only
    /// after this handler has returned, whichever store runs first.
    func undo(_ list: inout TodoList, _ action: Action<Void>) throws {
        guard let history = try dispatcher?.store(HistoryStore.self), let previous = history.state.previous else {
            throw TodoError.nothingToUndo
        }
        list = previous
    }
}
