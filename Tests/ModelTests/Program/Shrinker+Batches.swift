// Simpler forms of the operations of the store set: batches with fewer parts, appends for edits.
extension Shrinker {
    static func simpler(_ items: [BatchItem], aborts: Bool) -> [Operation] {
        var results: [Operation] = []
        if items.count == 1, !aborts, case .dispatch(let command) = items[0] { results.append(.dispatch(command)) }
        if aborts { results.append(.batchOf(items)) }
        for index in items.indices {
            var fewer = items
            fewer.remove(at: index)
            if !fewer.isEmpty { results.append(.batchOf(fewer, aborts: aborts)) }
            var simpler: [BatchItem] = []
            switch items[index] {
            case .dispatch(let command): simpler = Self.simpler(command).map(BatchItem.dispatch)
            case .mutate(let store, let edit, let tag) where edit != .append:
                simpler = [.mutate(store: store, .append, tag: tag)]
            case .mutate: break
            }
            for item in simpler {
                var changed = items
                changed[index] = item
                results.append(.batchOf(changed, aborts: aborts))
            }
        }
        return results
    }
}

extension Shrinker {
    /// Simpler forms of a poke: an append, and no read of its own store.
    static func simpler(_ poke: Poke) -> [Operation] {
        var results: [Operation] = []
        if poke.readsOwnState { results.append(.poke(Poke(tag: poke.tag, edit: poke.edit))) }
        if poke.edit != .append {
            results.append(.poke(Poke(tag: poke.tag, edit: .append, readsOwnState: poke.readsOwnState)))
        }
        return results
    }
}
