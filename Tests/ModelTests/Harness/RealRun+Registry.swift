import Fluxion

// The real side of the operations that register and unregister stores, and of `.batchOf` batches.
extension RealRun {
    /// Unregisters store `index`, then observes the stores registered now (and stops observing the others).
    func unregister(_ index: Int) {
        ModelStoreSet.unregister(index, from: dispatcher)
        context.registered.removeAll { $0 == index }
        observeRegisteredStores()
    }

    /// Registers store `index` again; its store is made at once, and observed.
    func register(_ index: Int) throws {
        try ModelStoreSet.register(index, on: dispatcher)
        if index < 4 { context.registered.append(index) }
        observeRegisteredStores()
    }

    /// Observes every registered store not observed yet (a store registered again is a new store), and
    /// stops observing each store that is not registered any more.
    func observeRegisteredStores() {
        for index in 0..<ModelStoreSet.count {
            guard let (store, observe) = observer(of: index) else {
                tokens.removeValue(forKey: index)?.token.cancel()
                continue
            }
            guard tokens[index]?.store != store else { continue }
            tokens[index]?.token.cancel()
            tokens[index] = (store, observe())
        }
    }

    /// Store `index`'s identity, and what observes it; `nil` when its type is not registered.
    private func observer(of index: Int) -> (ObjectIdentifier, () -> ObservationToken)? {
        func made<S: ItemList>(_ store: Store<S>) -> (ObjectIdentifier, () -> ObservationToken) {
            (ObjectIdentifier(store), { [context, dispatcher] in Self.observe(store, index, context, dispatcher) })
        }
        switch index {
        case 0: return (try? dispatcher.store(StoreA.self)).map(made)
        case 1: return (try? dispatcher.store(StoreB.self)).map(made)
        case 2: return (try? dispatcher.store(StoreC.self)).map(made)
        case 3: return (try? dispatcher.store(StoreD.self)).map(made)
        case 4: return (try? dispatcher.store(StoreE.self)).map(made)
        case 5: return (try? dispatcher.store(StoreF.self)).map(made)
        case 6: return (try? dispatcher.store(StoreG.self)).map(made)
        default:
            // NB: by a key path, which needs no state from before: store H's handler changes its state in place.
            return (try? dispatcher.store(StoreH.self)).map { store in
                (
                    ObjectIdentifier(store),
                    { [context, dispatcher] in
                        store.observe(\.items) { [context, weak dispatcher] change in
                            guard let dispatcher else { return }
                            context.heard(
                                7, old: change.oldValue, new: change.newValue, action: change.action.name,
                                on: dispatcher)
                        }
                    }
                )
            }
        }
    }

    /// Runs a `.batchOf` batch: its dispatches and inline mutations in order, then a throw if it `aborts`.
    func batch(_ items: [BatchItem], aborts: Bool) throws {
        try dispatcher.batch { batch in
            for item in items {
                switch item {
                case .dispatch(let command): try batch.dispatch(.op, payload: command, error: command.error)
                case .mutate(let store, let edit, let tag): try ModelStoreSet.mutate(store, in: batch, edit, tag: tag)
                }
            }
            if aborts { throw Aborted() }
        }
    }
}
