/// Which items the list shows: the state of ``FilterStore``.
public enum VisibilityFilter: String, Codable, CaseIterable, Sendable, CustomStringConvertible {
    /// Every item.
    case all
    /// The items not done yet.
    case active
    /// The items done.
    case completed

    /// Whether the filter shows `todo`.
    public func shows(_ todo: Todo) -> Bool {
        switch self {
        case .all: true
        case .active: !todo.isDone
        case .completed: todo.isDone
        }
    }

    /// The filter's name, as `todo filter` takes it.
    public var description: String { rawValue }
}
