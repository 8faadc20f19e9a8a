/// A store a journal has seen: what its entries name, for as long as the journal lives, and its
/// state as the journal last noted it.
///
/// Entries point at it without a reference count (see ``JournalEntries/Change``), so the tracker
/// keeps every one it made.
final class JournalStore: @unchecked Sendable {  // `count` and `state`: only the dispatch turn holder
    let store: any StateReplacing
    /// The store type's name, as `"\(type)"` prints it: what records and the file show.
    let name: String
    /// The store type's name qualified by its module (and enclosing types): what tells two stores of
    /// the same short name apart in a file.
    let qualifiedName: String
    /// The store's address, to tell it by without a reference count.
    let address: UnsafeMutableRawPointer
    /// The store's commit count when its state was last noted.
    var count: UInt64
    /// The state last noted.
    // unchecked: W13 +237 instructions/dispatch checked (callgrind)
    @exclusivity(unchecked) var state: any Sendable

    init(_ store: any StateReplacing) {
        self.store = store
        address = Unmanaged.passUnretained(store as AnyObject).toOpaque()
        name = typeName(type(of: store))
        qualifiedName = qualifiedTypeName(type(of: store))
        count = store.commitCount
        state = store.committedValue
    }

    /// Whether the store committed since its state was last noted.
    var hasChanged: Bool {
        store.commitCount != count
    }

    /// Notes the store's state as it is now.
    func noteAnew() {
        count = store.commitCount
        state = store.committedValue
    }

    /// Notes the store's state as it is now, and returns its change from the state noted before.
    func noteChange() -> JournalEntries.Change {
        count = store.commitCount
        let new = store.committedValue
        // NB: copied, not swapped in: moving the state noted through the stack stalled on its partial writes.
        defer { state = new }
        return JournalEntries.Change(self, oldState: state, newState: new)
    }
}

/// What a journal knows of each store's state, to record a step's changes without observing the stores.
///
/// A commit bumps a store's commit count, in place or not. Before an action
/// reaches its stores, the tracker notes the count and state of each; after,
/// a store whose count moved changed, from the state noted to its state now.
/// No old state is kept by the store for the journal, and in-place changes
/// stay in place. A change made while the journal did not look (its own time
/// travel, a change before it saw the store) is noted afresh at the next look.
final class JournalTracker: @unchecked Sendable {  // touched only by the thread holding the dispatch turn
    /// The stores noted, by registration order; `stores` holds them.
    // unchecked: W13 +167 instructions/dispatch checked (callgrind)
    @exclusivity(unchecked) private var noted: ContiguousArray<Unmanaged<JournalStore>?> = []
    /// Every store the tracker ever noted: entries point at them unretained.
    private var stores: [JournalStore] = []

    /// Notes the state of each store of `list` as it is before an action changes it.
    func noteStates(of list: RouteList) {
        // NB: the list holds its routes and their stores: they are lent without reference counts.
        for index in list.routes.indices {
            unowned(unsafe) let route = list.routes[index]
            guard let store = route.unretainedStore else { continue }
            let order = route.registration.order
            if order < noted.count, let seen = noted[order],
                seen._withUnsafeGuaranteedRef({ $0.address == store.toOpaque() })
            {
                seen._withUnsafeGuaranteedRef { if $0.hasChanged { $0.noteAnew() } }
            } else if let store = route.store {
                note(store, order: order)
            }
        }
    }

    /// Notes the state of `store`, registered `order`-th, unless it is noted as it is.
    func note(_ store: any StoreRuntime, order: Int) {
        if order < noted.count, let seen = noted[order],
            seen._withUnsafeGuaranteedRef({ $0.address == Unmanaged.passUnretained(store as AnyObject).toOpaque() })
        {
            seen._withUnsafeGuaranteedRef { if $0.hasChanged { $0.noteAnew() } }
            return
        }
        guard let replacing = store as? any StateReplacing else { return }
        let seen = JournalStore(replacing)
        stores.append(seen)
        if order >= noted.count { noted.append(contentsOf: repeatElement(nil, count: order - noted.count + 1)) }
        noted[order] = Unmanaged.passUnretained(seen)
    }

    /// The changes of the stores of `list` since they were noted, in registration order; notes them anew.
    func changes(of list: RouteList) -> JournalEntries.Changes {
        var changes = JournalEntries.Changes()
        for index in list.routes.indices {
            unowned(unsafe) let route = list.routes[index]
            collect(order: route.registration.order, into: &changes)
        }
        return changes
    }

    /// The changes of every store noted since it was, in registration order; notes them anew.
    func changesOfAll() -> JournalEntries.Changes {
        var changes = JournalEntries.Changes()
        for order in noted.indices { collect(order: order, into: &changes) }
        return changes
    }

    private func collect(order: Int, into changes: inout JournalEntries.Changes) {
        guard order < noted.count, let seen = noted[order] else { return }
        seen._withUnsafeGuaranteedRef { seen in
            guard seen.hasChanged else { return }
            // NB: a handler that changed an `Equatable` state in place and left it equal counted a commit; it
            // is no change, as a commit of an equal copy is none. Compared before the new state is boxed.
            if seen.store.committedStateEquals(seen.state) {
                seen.noteAnew()
                return
            }
            changes.append(seen.noteChange())
        }
    }
}
