/// The undo history: the state of ``HistoryStore``.
///
/// `present` is the list as the history last saw it, and `past` the lists
/// before it, oldest first, at most ``limit`` of them. Keeping `present`
/// lets the history tell, after an action, whether the list changed and what
/// it was before, whatever order the stores run in.
public struct History: Codable, Equatable, Sendable {
    /// How many earlier lists the history keeps.
    public static let limit = 20

    /// The earlier lists, oldest first; the last one is what `undo` restores.
    public private(set) var past: [TodoList]

    /// The list as the history last saw it.
    public private(set) var present: TodoList

    /// Creates a history with nothing to undo, starting at `present`.
    public init(present: TodoList = TodoList(), past: [TodoList] = []) {
        self.present = present
        self.past = Array(past.suffix(Self.limit))
    }

    /// The list `undo` restores, if any.
    public var previous: TodoList? { past.last }

    /// Notes the list after an action: if it changed, the one before becomes undoable.
    public mutating func record(_ list: TodoList) {
        guard list != present else { return }
        past.append(present)
        if past.count > Self.limit { past.removeFirst(past.count - Self.limit) }
        present = list
    }

    /// Notes the list after an undo, which restored ``previous``.
    public mutating func stepBack(to list: TodoList) {
        if !past.isEmpty { past.removeLast() }
        present = list
    }
}
