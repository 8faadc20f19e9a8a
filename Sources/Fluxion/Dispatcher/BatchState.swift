/// A batch, while a transaction is one: its actions, whether one runs, and the stores it staged.
///
/// A batch stages every store it changes, in registration order, and commits
/// or rolls them back together when it ends. Part of ``Transaction``'s state:
/// only the thread holding the dispatch turn touches it.
struct BatchState {
    /// A store of the batch whose change waits for the commit.
    struct Staged {
        let order: Int
        let store: AnyObject
        let operations: StoreOperations
        /// Whether its change is committed and someone hears it.
        var delivers = false
    }

    /// Whether a batch is open: from its start to its end.
    var isOpen = false
    /// Whether one of the batch's actions is running (its middleware, handlers or hooks).
    var isRunningAction = false
    /// The batch's actions, in order, as they reached the stores.
    var actions: [AnyAction] = []
    /// The stores whose changes the batch staged, in registration order.
    private var staged: [Staged] = []

    /// Whether the batch staged a store's change.
    var hasStaged: Bool { !staged.isEmpty }

    /// The types of the stores the batch staged.
    var stagedStoreIDs: Set<ObjectIdentifier> { Set(staged.map { ObjectIdentifier(type(of: $0.store)) }) }

    /// Takes the batch's actions, in order.
    mutating func takeActions() -> [AnyAction] {
        var taken: [AnyAction] = []
        swap(&taken, &actions)
        return taken
    }

    /// Makes `store` stage its changes, once, and lists it in registration order.
    mutating func stage(_ store: AnyObject, order: Int, operations: StoreOperations) {
        guard !staged.contains(where: { $0.store === store }) else { return }
        operations.stage(store)
        let entry = Staged(order: order, store: store, operations: operations)
        // NB: stores mostly stage in registration order; `waitFor` and batches may not.
        if let last = staged.last, last.order > order {
            staged.insert(entry, at: staged.lastIndex { $0.order < order }.map { $0 + 1 } ?? 0)
        } else {
            staged.append(entry)
        }
    }

    /// Commits each staged store, in registration order, noting which changes someone hears.
    mutating func commitStaged() {
        for index in staged.indices {
            staged[index].delivers = staged[index].operations.commit(staged[index].store)
        }
    }

    /// Rolls each staged store back, and forgets them.
    mutating func rollBackStaged() {
        guard !staged.isEmpty else { return }
        for entry in staged { entry.operations.rollback(entry.store) }
        staged.removeAll(keepingCapacity: true)
    }

    /// Takes the committed stores whose changes someone hears, to deliver, in registration order.
    mutating func takeCommitted() -> [Staged] {
        defer { staged.removeAll(keepingCapacity: true) }
        return staged.filter(\.delivers)
    }
}
