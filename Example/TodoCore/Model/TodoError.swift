/// Why a store rejected an action; each message says what was wrong.
public enum TodoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An item needs a title.
    case emptyTitle
    /// There is no item with this number.
    case noSuchItem(Int)
    /// The undo history is empty.
    case nothingToUndo

    /// The message `todo` prints after `todo: `.
    public var description: String {
        switch self {
        case .emptyTitle: "a todo needs a title"
        case .noSuchItem(let number): "there is no item \(number)"
        case .nothingToUndo: "there is nothing to undo"
        }
    }
}
