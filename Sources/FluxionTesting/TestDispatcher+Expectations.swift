import Fluxion

// Computed stores in a test, and the check of an action's states against what the test expects: a tracked
// computed store's expected state is derived from its sources' expected states, so a test names only what
// it changes by hand.
extension TestDispatcher {
    /// Registers a computed store type as ``/Fluxion/Dispatcher/register(_:computedFrom:compute:)`` does,
    /// tracks it, and derives its expected state from its sources' in every expectation.
    ///
    /// ```swift
    /// try test.register(LedgerStore.self)
    /// try test.register(MonthSummaryStore.self, computedFrom: LedgerStore.self) { ledger in
    ///     MonthSummary(spent: ledger.entries.map(\.amount).reduce(0, +))
    /// }
    /// try test.dispatch(.record, payload: Entry(amount: 12)) {
    ///     $0.modify(LedgerStore.self) { $0.entries.append(Entry(amount: 12)) }
    /// }  // MonthSummaryStore is expected to be computed from the ledger expected: spent 12
    /// ```
    ///
    /// After an expectation changes a source, the computed store is expected to hold `compute` of the
    /// sources' expected states; the test does not restate it. An expectation may still set the
    /// computed store itself: it is then checked against the derivation too, and a difference fails the
    /// test, with a diff, as the dispatcher would never produce it. A source this test dispatcher does
    /// not track leaves the computed store to be asserted by hand.
    ///
    /// - Throws: What ``/Fluxion/Dispatcher/register(_:computedFrom:compute:)`` throws.
    public func register<
        State: Sendable & Equatable, S: Store<State> & DefaultInitializable, each Source: StoreProtocol
    >(
        _ type: S.Type,
        computedFrom sources: repeat (each Source).Type,
        compute: @escaping @Sendable (repeat (each Source).State) throws -> State
    ) throws {
        try dispatcher.register(type, computedFrom: repeat each sources, compute: compute)
        try track(type)
        var ids: [ObjectIdentifier] = []
        for source in repeat each sources { ids.append(ObjectIdentifier(source)) }
        log.derive(
            ObjectIdentifier(type),
            with: TestLog.Derivation(sources: ids) { states in
                func state<Given: StoreProtocol>(of source: Given.Type) -> Given.State? {
                    states[ObjectIdentifier(source)] as? Given.State
                }
                for present in repeat state(of: (each Source).self) {
                    guard present != nil else { return nil }
                }
                return try compute(repeat state(of: (each Source).self)!)
            })
    }

    /// Checks the states after `step` against the expectation, and makes them the states as last asserted.
    ///
    /// - Parameters:
    ///   - subject: What the messages name as having changed the stores; `step`'s action by default.
    ///   - thrown: The error the dispatch threw, for the messages.
    func check(
        _ step: TestLog.Step,
        _ expected: ((inout StateExpectation) throws -> Void)?,
        subject: String? = nil,
        thrown: (any Error)? = nil,
        at site: CallSite
    ) throws {
        let before = log.knownStates
        var expectation = StateExpectation(states: before)
        defer { log.knownStates = step.states }
        try expected?(&expectation)
        for name in expectation.unknown {
            TestFailure.record("\(name) is not registered with this TestDispatcher", at: site)
        }
        let action = subject ?? "\(step.action)"
        deriveComputedStores(in: &expectation, after: action, at: site)
        let actor = thrown.map { "\(action), which threw \($0)," } ?? action
        for (id, store) in log.trackedStores {
            guard let actual = step.states[id], let wanted = expectation.states[id] else { continue }
            guard exhaustivity.checks(id, named: expectation.modified) else { continue }
            guard !store.isEqual(wanted, actual) else { continue }
            let diff = StateDiff.lines(from: wanted, to: actual).map { "  \($0)" }.joined(separator: "\n")
            let what =
                if let old = before[id], store.isEqual(old, actual) {
                    "did not change \(store.name), but the expectation changed it"
                } else if expectation.modified.contains(id) {
                    "changed \(store.name) other than expected"
                } else {
                    "changed \(store.name) but the expectation did not say so"
                }
            TestFailure.record("\(actor) \(what) (expected → actual):\n\(diff)", at: site)
        }
    }

    /// Sets each tracked computed store whose sources the expectation changed to its derivation from their
    /// expected states, in registration order; fails the test where the expectation set it otherwise.
    private func deriveComputedStores(in expectation: inout StateExpectation, after action: String, at site: CallSite) {
        let tracked = Dictionary(log.trackedStores.map { ($0.id, $0.store) }, uniquingKeysWith: { first, _ in first })
        for (id, derivation) in log.derivations {
            let isWritten = expectation.modified.contains(id)
            guard isWritten || derivation.sources.contains(where: expectation.modified.contains),
                let derived = try? derivation.derive(expectation.states), let store = tracked[id]
            else { continue }
            if isWritten, let written = expectation.states[id], !store.isEqual(written, derived) {
                let diff = StateDiff.lines(from: derived, to: written).map { "  \($0)" }.joined(separator: "\n")
                TestFailure.record(
                    "the expectation of \(action) set \(store.name) other than its computation from the expected "
                        + "sources (computed → expected):\n\(diff)", at: site)
            }
            expectation.derive(id, as: derived)
        }
    }
}
