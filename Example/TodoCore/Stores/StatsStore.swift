import Fluxion

/// Counts the items: after every action that can change the list, it waits
/// for ``TodoStore`` and counts its new list.
///
/// It keeps no data of its own, so it is not persisted; it is registered as
/// derived from ``TodoStore``, so it starts from the list as restored (see ``TodoApp``).
public final class StatsStore: Store<Stats>, @unchecked Sendable {  // locked by Store
    /// Creates the store with the counts of `items`.
    public init(counting items: [Todo]) { super.init(initialState: Stats(counting: items)) }

    override public class var handlers: HandlerTable<Stats> {
        HandlerTable()
            .on(.addTodo, StatsStore.recount)
            .on(.completeTodo, StatsStore.recount)
            .on(.clearCompleted, StatsStore.recount)
            .on(.importFinished, StatsStore.recount)
            .on(.undo, StatsStore.recount)
    }

    /// Counts the list as ``TodoStore`` left it; rethrows its error, so the counts stay as they were.
    func recount<Payload>(_ stats: inout Stats, _ action: Action<Payload>) throws {
        stats = Stats(counting: try waitFor(TodoStore.self).state.items)
    }
}
