import Fluxion

/// Keeps the lists `undo` can go back to.
///
/// After every action that can change the list, it waits for ``TodoStore``
/// and records the new list; when it differs from the one it saw last, that
/// one becomes undoable (see ``History``). An action the list rejected
/// rethrows through `waitFor`, so it records nothing, and neither does one
/// that changed nothing (`done` on a done item). For `undo`, ``TodoStore``
/// restores ``History/previous`` and this store then drops it.
public final class HistoryStore: Store<History>, @unchecked Sendable {  // locked by Store
    /// Creates the store with nothing to undo, starting from `list`; a persisted history replaces it.
    public init(tracking list: TodoList) { super.init(initialState: History(present: list)) }

    override public class var handlers: HandlerTable<History> {
        HandlerTable()
            .route(.addTodo, to: HistoryStore.record)
            .route(.completeTodo, to: HistoryStore.record)
            .route(.clearCompleted, to: HistoryStore.record)
            .route(.importFinished, to: HistoryStore.record)
            .route(.undo, to: HistoryStore.stepBack)
    }

    func record<Payload>(_ history: inout History, _ action: Action<Payload>) throws {
        history.record(try waitFor(TodoStore.self).state)
    }

    func stepBack(_ history: inout History, _ action: Action<Void>) throws {
        history.stepBack(to: try waitFor(TodoStore.self).state)
    }
}
