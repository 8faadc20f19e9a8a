// The operations that register and unregister stores, and the batches that mix actions with inline mutations.
extension ProgramGenerator {
    /// An operation of the store set (for `roll` in 0..<16), or `nil` when the model cannot take it now.
    mutating func storeSetCandidate(_ roll: Int) -> Operation? {
        let model = self.model
        switch roll {
        case 14..<16 where model.suspensions == 0 && !model.isTravelling:
            defer { nextMutationTag += 1 }
            return .poke(Poke(tag: nextMutationTag, edit: edit(), readsOwnState: random.below(4) == 0))
        // NB: a move over several steps at once, now and then to a step the journal does not hold.
        case 12..<14 where model.newest > 0:
            return .travel(to: model.oldest - 1 + random.below(model.newest - model.oldest + 3))
        case 0..<5 where model.suspensions == 0:
            let items = (0...random.below(3)).map { _ in batchItem() }
            return .batchOf(items, aborts: random.below(10) == 0)
        // NB: A and B are persistent: programs neither unregister them nor register them again.
        case 5..<8 where !model.isTravelling:
            let registered = model.registered.filter(ModelStoreSet.registrable.contains)
            return registered.isEmpty ? nil : .unregister(store: registered[random.below(registered.count)])
        case 8..<12 where !model.isTravelling:
            let unregistered = ModelStoreSet.registrable.filter { !model.registered.contains($0) }
            // NB: mostly one the model can register now; now and then one refused (registered, or a source missing).
            let ready = unregistered.filter { Derivation.sources(of: $0).allSatisfy(model.registered.contains) }
            if random.below(10) == 0 { return .register(store: 2 + random.below(ModelStoreSet.registrable.count)) }
            return ready.isEmpty ? nil : .register(store: ready[random.below(ready.count)])
        default: return nil
        }
    }

    /// A part of a `.batchOf` batch: mostly an action; else a mutation, mostly of a store with handlers.
    private mutating func batchItem() -> BatchItem {
        guard random.below(3) == 0 else { return .dispatch(command(depth: 1)) }
        defer { nextMutationTag += 1 }
        let store = random.below(8) == 0 ? 4 + random.below(3) : random.below(4)
        return .mutate(store: store, edit(), tag: nextMutationTag)
    }

    /// What a handler or a mutation does: mostly an append; a removal or a clear brings a state back.
    mutating func edit() -> Edit {
        switch random.below(10) {
        case 0, 1: .removeLast
        case 2: .clear
        default: .append
        }
    }
}
