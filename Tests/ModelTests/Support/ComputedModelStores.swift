import Fluxion

/// Computed from three stores, A, C and D (`Derivation.f`): D's state is not `Codable`, F's is.
final class StoreF: Store<Items>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    /// Registers it on `dispatcher`, computed from A, C and D.
    static func register(on dispatcher: Dispatcher) throws {
        try dispatcher.register(StoreF.self, computedFrom: StoreA.self, StoreC.self, StoreD.self) { a, c, d in
            Items(items: Derivation.f(a.items, c.items, d.items))
        }
    }
}

/// Computed from two computed stores, E and F (`Derivation.g`): their even items.
final class StoreG: Store<Items>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    /// Registers it on `dispatcher`, computed from E and F.
    static func register(on dispatcher: Dispatcher) throws {
        try dispatcher.register(StoreG.self, computedFrom: StoreE.self, StoreF.self) { e, f in
            Items(items: Derivation.g(e.items, f.items))
        }
    }
}

/// The model's eight stores by their index (A 0 … H 7), for the code that names them by number.
enum ModelStoreSet {
    static let count = 8
    /// The stores programs unregister and register again: C, D and the computed ones.
    static let registrable = 2...6

    /// Every store's items, by index; `[-1]` for a store type that is not registered.
    static func states(of dispatcher: Dispatcher) -> [[Int]] {
        [
            (try? dispatcher.store(StoreA.self).state.items) ?? [-1],
            (try? dispatcher.store(StoreB.self).state.items) ?? [-1],
            (try? dispatcher.store(StoreC.self).state.items) ?? [-1],
            (try? dispatcher.store(StoreD.self).state.items) ?? [-1],
            (try? dispatcher.store(StoreE.self).state.items) ?? [-1],
            (try? dispatcher.store(StoreF.self).state.items) ?? [-1],
            (try? dispatcher.store(StoreG.self).state.items) ?? [-1],
            (try? dispatcher.store(StoreH.self).state.items) ?? [-1],
        ]
    }

    /// Registers store `index` on `dispatcher` (A and B without persistence: a program's `RealRun` registers
    /// them with it, once, and programs neither unregister nor register them again).
    static func register(_ index: Int, on dispatcher: Dispatcher) throws {
        switch index {
        case 0: try dispatcher.register(StoreA.self)
        case 1: try dispatcher.register(StoreB.self)
        case 2: try dispatcher.register(StoreC.self)
        case 3: try dispatcher.register(StoreD.self)
        case 4: try StoreE.register(on: dispatcher)
        case 5: try StoreF.register(on: dispatcher)
        case 6: try StoreG.register(on: dispatcher)
        default: try dispatcher.register(StoreH.self)
        }
    }

    /// Unregisters store `index` from `dispatcher`.
    static func unregister(_ index: Int, from dispatcher: Dispatcher) {
        switch index {
        case 0: dispatcher.unregister(StoreA.self)
        case 1: dispatcher.unregister(StoreB.self)
        case 2: dispatcher.unregister(StoreC.self)
        case 3: dispatcher.unregister(StoreD.self)
        case 4: dispatcher.unregister(StoreE.self)
        case 5: dispatcher.unregister(StoreF.self)
        case 6: dispatcher.unregister(StoreG.self)
        default: dispatcher.unregister(StoreH.self)
        }
    }

    /// Changes store `index`'s items inside `batch`, as `edit` says (`tag` is what `.append` appends).
    static func mutate(_ index: Int, in batch: DispatchBatch, _ edit: Edit, tag: Int) throws {
        let body: @Sendable (inout Items) -> Void = { edit.apply(to: &$0.items, value: tag) }
        switch index {
        case 0: try batch.mutate(StoreA.self, body)
        case 1: try batch.mutate(StoreB.self, body)
        case 2: try batch.mutate(StoreC.self, body)
        case 3: try batch.mutate(StoreD.self) { edit.apply(to: &$0.items, value: tag) }
        case 4: try batch.mutate(StoreE.self, body)
        case 5: try batch.mutate(StoreF.self, body)
        case 6: try batch.mutate(StoreG.self, body)
        default: try batch.mutate(StoreH.self, body)
        }
    }
}
