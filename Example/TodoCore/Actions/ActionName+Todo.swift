import Fluxion

// The app's actions. Each name fixes its payload type, so the dispatch sites
// and the stores' handlers agree at compile time.

extension ActionName where Payload == String {
    /// Adds an item with the title in the payload.
    public static var addTodo: Self { "addTodo" }
}

extension ActionName where Payload == Int {
    /// Marks the item with the number in the payload (counting from 1) as done.
    public static var completeTodo: Self { "completeTodo" }
}

extension ActionName where Payload == Void {
    /// Removes the items that are done.
    public static var clearCompleted: Self { "clearCompleted" }

    /// Restores the list as it was before its last change.
    public static var undo: Self { "undo" }
}

extension ActionName where Payload == VisibilityFilter {
    /// Chooses which items the list shows.
    public static var setFilter: Self { "setFilter" }
}

extension ActionName where Payload == String {
    /// Imports the todos of the JSON file at the path in the payload: ``TodoStore`` asks for an
    /// effect that reads it and dispatches ``importFinished``.
    public static var importTodos: Self { "importTodos" }
}

extension ActionName where Payload == [Todo] {
    /// Reports the end of an import: the items read, or an ``ImportError`` with an empty payload.
    ///
    /// One name for success and failure: ``TodoImporter`` dispatches
    /// `dispatch(.importFinished, payload: todos)` or
    /// `dispatch(.importFinished, payload: [], error: error)`, and
    /// ``TodoStore`` checks the action's error.
    public static var importFinished: Self { "importFinished" }
}
