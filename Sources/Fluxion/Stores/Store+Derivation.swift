// A computed store's state as readers inside a step see it: derived from the sources the step has staged so far,
// so that no reader sees a source and its computed store disagree.
extension Store {
    /// Makes this computed store's state, read by the turn holder while a step's handlers or mutations run,
    /// `derive` of its sources as that thread sees them; called once, before the store is published.
    @usableFromInline
    final func derivesOnRead(_ sources: ComputedSources, _ derive: @escaping @Sendable () throws -> State) {
        derivation = Derivation(sources: sources, derive: derive)
        isDerived.set(true)
    }

    /// The state derived from the sources' staged states, for the turn holder reading this computed store
    /// while a step's handlers or mutations run and a source has a staged change; `nil` otherwise (the
    /// state is then read as any store's: the derive stage stages it, and the commit makes it the committed one).
    /// NB: the caller holds the turn: the dispatcher is lent.
    @usableFromInline
    final func derivedState() -> State? {
        guard let derivation, let link = turnLink.link else { return nil }
        let derives = link._withUnsafeGuaranteedRef { link in
            link.dispatcher._withUnsafeGuaranteedRef { $0.derivesForReaders }
        }
        guard derives, derivation.sources.hasChangeForReaders else { return nil }
        // NB: a `compute` that throws throws in the derive stage too, and rolls the step back there.
        return try? derivation.derive()
    }
}

extension Store {
    /// Whether the store is computed from sources that a reader inside the running step sees changed.
    var derivesFromChanges: Bool { derivation?.sources.hasChangeForReaders ?? false }
}

/// How a computed store derives its state: its sources, and its computation over their states as the calling
/// thread sees them.
@usableFromInline
final class Derivation<State>: Sendable {
    let sources: ComputedSources
    let derive: @Sendable () throws -> State

    @usableFromInline
    init(sources: ComputedSources, derive: @escaping @Sendable () throws -> State) {
        self.sources = sources
        self.derive = derive
    }
}
