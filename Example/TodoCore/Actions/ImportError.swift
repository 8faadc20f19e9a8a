/// Why `todo import` could not read its file.
public enum ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file is not a JSON list of todos.
    case notTodos(path: String, reason: String)

    /// The message `todo` prints after `todo: `.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "could not import \(path): \(reason)"
        case .notTodos(let path, let reason):
            "could not import \(path): it is not a JSON list of todos like "
                + #"[{"title": "Buy milk", "isDone": false}] ("# + reason + ")"
        }
    }
}
