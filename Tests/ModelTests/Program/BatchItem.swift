/// One part of a `.batchOf` batch: an action, or an inline mutation of a store.
enum BatchItem: Sendable, Equatable, CustomStringConvertible {
    /// `batch.dispatch(.op, payload: command)`.
    case dispatch(Command)
    /// `batch.mutate(store) { … }`, editing its items as `edit` says (`tag` is what `.append` appends):
    /// a computed store (4...6) refuses it.
    case mutate(store: Int, Edit, tag: Int)

    var description: String {
        switch self {
        case .dispatch(let command): ".dispatch(\(command))"
        case .mutate(let store, let edit, let tag): ".mutate(store: \(store), \(edit), tag: \(tag))"
        }
    }
}
