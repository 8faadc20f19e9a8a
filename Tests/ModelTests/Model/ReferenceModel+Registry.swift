// Registering and unregistering stores. A store registered again is a new store: one with handlers starts
// from its first state, a computed one is computed from its sources as they are. Unregistering a store
// unregisters the computed stores that follow it too (directly or through others), so that nothing is
// left computed from a store that is gone, and every action the other stores handle goes on as before.
extension ReferenceModel {
    mutating func unregister(_ store: Int) {
        guard registered.contains(store) else { return }
        let dependents = Derivation.dependents(of: store).filter(registered.contains)
        for removed in [store] + dependents {
            orphans[instance(of: removed)] = present[removed]
            registered.removeAll { $0 == removed }
            present[removed] = [-1]
            world.states[removed] = [-1]
        }
    }

    mutating func register(_ store: Int) {
        // NB: a type registered already, or a computed store whose source is not registered, is refused.
        guard !registered.contains(store), Derivation.sources(of: store).allSatisfy(registered.contains) else {
            world.outcome = "threw fluxion"
            return
        }
        generations[store] += 1
        registered.append(store)
        present[store] = Derivation.isComputed(store) ? Derivation.compute(store, from: present) : []
        world.states[store] = present[store]
    }
}
