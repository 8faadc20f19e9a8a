/// What a handler (or a batch's inline mutation) does to a store's items: the model's states can go back
/// to earlier values, and a step can leave a state equal (an `Equatable` state left equal is no change).
enum Edit: String, Codable, Sendable, Equatable, CustomStringConvertible {
    /// Appends the value: a new state, never seen before.
    case append
    /// Removes the last item, if any: the state before the last append; an empty state is left equal.
    case removeLast
    /// Removes every item: the first state again; an empty state is left equal.
    case clear

    /// Applies the edit to `items`; `value` is what `.append` appends.
    func apply(to items: inout [Int], value: Int) {
        switch self {
        case .append: items.append(value)
        case .removeLast: if !items.isEmpty { items.removeLast() }
        case .clear: items.removeAll()
        }
    }

    var description: String { ".\(rawValue)" }
}
