import Fluxion

/// Counts the items: computed from ``TodoStore`` (see ``TodoApp``), it follows every change of the list
/// with no handler of its own.
///
/// It keeps no data of its own, so it is not persisted: it is computed from the list as restored.
public final class StatsStore: Store<Stats>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    /// Creates the store with no items counted; the dispatcher computes its state from ``TodoStore``'s.
    public init() { super.init(initialState: Stats(counting: [])) }
}
