import Fluxion
import Foundation
import Testing

// The derive stage: a computed store's state is derived from its sources on every path that changes them —
// a batch that brings a source back, inline mutations, travel, replay, unregistering — and nothing sets it.

struct DerivationTally: Codable, Sendable, Equatable {
    var count = 0
}

extension ActionName where Payload == Int {
    fileprivate static var add: Self { "derivationAdd" }
    fileprivate static var addInPlace: Self { "derivationAddInPlace" }
    fileprivate static var addAndReadTenfold: Self { "derivationAddAndReadTenfold" }
}

extension ActionName where Payload == Void {
    fileprivate static var readBoth: Self { "derivationReadBoth" }
}

/// The source: a count that goes up and down, so that a batch can bring it back.
// NB: `@unchecked Sendable`: locked by Store.
final class DerivationTallyStore: Store<DerivationTally>, DefaultInitializable, @unchecked Sendable {
    init() { super.init(initialState: DerivationTally()) }

    override class var handlers: HandlerTable<DerivationTally> {
        HandlerTable()
            .on(.add) { state, action in state.count += action.payload }
            .route(.addAndReadTenfold, to: DerivationTallyStore.addAndReadTenfold)
    }

    func addAndReadTenfold(_ state: inout DerivationTally, _ action: Action<Int>) throws {
        state.count += action.payload
    }
}

/// A second source, whose handler reads the first source and the computed store inside the step.
final class DerivationReaderStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().route(.addAndReadTenfold, to: DerivationReaderStore.read)
    }

    func read(_ state: inout Int, _ action: Action<Int>) throws {
        let tally = try waitFor(DerivationTallyStore.self)
        guard let dispatcher else { return }
        let tenfold = try dispatcher.store(DerivationTenfoldStore.self)
        // NB: the computed store, read inside the step, agrees with the source's staged state.
        state = dispatcher.read { tenfold.state - tally.state.count * 10 }
    }
}

/// Ten times the tally: computed.
final class DerivationTenfoldStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: -1) }
}

/// Tenfold plus one: computed from a computed store.
final class DerivationTenfoldPlusOneStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: -1) }
}

@Suite struct ComputedStoreDerivationTests {
    private func makeDispatcher(counting computations: ComputationCounter? = nil) throws -> Dispatcher {
        let dispatcher = Dispatcher()
        try dispatcher.register(DerivationTallyStore.self)
        try dispatcher.register(DerivationTenfoldStore.self, computedFrom: DerivationTallyStore.self) { tally in
            computations?.increment()
            return tally.count * 10
        }
        return dispatcher
    }

    private func states(of dispatcher: Dispatcher) throws -> (Int, Int) {
        try dispatcher.read {
            (
                try dispatcher.store(DerivationTallyStore.self).state.count,
                try dispatcher.store(DerivationTenfoldStore.self).state
            )
        }
    }

    @Test func aBatchThatBringsASourceBackLeavesTheComputedStoreInStepAndTellsNoObserver() throws {
        let computations = ComputationCounter()
        let dispatcher = try makeDispatcher(counting: computations)
        let heard = Recorder<Int>()
        let tenfold = try dispatcher.store(DerivationTenfoldStore.self)
        let token = tenfold.observe { heard.append($0.newState) }
        let before = computations.value

        try dispatcher.batch { batch in
            try batch.dispatch(.add, payload: 1)
            try batch.dispatch(.add, payload: -1)
        }
        try dispatcher.batch { batch in
            try batch.mutate(DerivationTallyStore.self) { $0.count = 5 }
            try batch.mutate(DerivationTallyStore.self) { $0.count = 0 }
        }

        #expect(try states(of: dispatcher) == (0, 0))
        #expect(heard.values.isEmpty)
        #expect(computations.value == before)  // NB: no source changed: nothing is computed
        withExtendedLifetime(token) {}
    }

    @Test func aBatchOfTenActionsComputesOnce() throws {
        let computations = ComputationCounter()
        let dispatcher = try makeDispatcher(counting: computations)
        _ = try dispatcher.store(DerivationTenfoldStore.self)
        let before = computations.value

        try dispatcher.batch { batch in
            for _ in 0..<10 { try batch.dispatch(.add, payload: 1) }
        }

        #expect(computations.value == before + 1)
        #expect(try states(of: dispatcher) == (10, 100))
    }

    @Test func aBatchCannotMutateAComputedStore() throws {
        let dispatcher = try makeDispatcher()
        try dispatcher.dispatch(.add, payload: 2)

        #expect(throws: FluxionError.computedStoreMutated("DerivationTenfoldStore")) {
            try dispatcher.batch { batch in
                try batch.dispatch(.add, payload: 1)
                try batch.mutate(DerivationTenfoldStore.self) { $0 = 999 }
            }
        }
        #expect(try states(of: dispatcher) == (2, 20))
        #expect(
            FluxionError.computedStoreMutated("DerivationTenfoldStore").description.contains("DerivationTenfoldStore"))
    }

    @Test func unregisteringASourceUnregistersItsComputedStoresAndLeavesItsActionsToTheOthers() throws {
        let dispatcher = try makeDispatcher()
        try dispatcher.register(DerivationReaderStore.self)
        try dispatcher.register(DerivationTenfoldPlusOneStore.self, computedFrom: DerivationTenfoldStore.self) {
            $0 + 1
        }
        try dispatcher.dispatch(.add, payload: 5)

        #expect(dispatcher.unregister(DerivationTallyStore.self))

        #expect(!dispatcher.isRegistered(DerivationTenfoldStore.self))
        #expect(!dispatcher.isRegistered(DerivationTenfoldPlusOneStore.self))
        #expect(dispatcher.isRegistered(DerivationReaderStore.self))
        // NB: the action the source handled still reaches the other store that handles it.
        try dispatcher.register(DerivationTallyStore.self)
        try dispatcher.register(DerivationTenfoldStore.self, computedFrom: DerivationTallyStore.self) { $0.count * 10 }
        #expect(try states(of: dispatcher) == (0, 0))
        try dispatcher.dispatch(.add, payload: 3)
        #expect(try states(of: dispatcher) == (3, 30))
    }

    @Test func aReadInsideAHandlerSeesTheComputedStoreDerivedFromTheStagedSource() throws {
        // NB: the reader comes before the computed store in registration order: it reads inside the step.
        let dispatcher = Dispatcher()
        try dispatcher.register(DerivationTallyStore.self)
        try dispatcher.register(DerivationReaderStore.self)
        try dispatcher.register(DerivationTenfoldStore.self, computedFrom: DerivationTallyStore.self) { $0.count * 10 }

        try dispatcher.dispatch(.addAndReadTenfold, payload: 1)

        // NB: tenfold - 10 × count, read inside the step.
        #expect(try dispatcher.store(DerivationReaderStore.self).state == 0)
        #expect(try states(of: dispatcher) == (1, 10))
    }

    @Test func travelDerivesAComputedStoreRegisteredAfterItsSourcesFirstStep() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(DerivationTallyStore.self)
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.add, payload: 1)
        try dispatcher.register(DerivationTenfoldStore.self, computedFrom: DerivationTallyStore.self) { $0.count * 10 }
        _ = try dispatcher.store(DerivationTenfoldStore.self)
        try dispatcher.dispatch(.add, payload: 1)

        try journal.travel(to: 0)
        #expect(try states(of: dispatcher) == (0, 0))
        try journal.travel(to: 1)
        #expect(try states(of: dispatcher) == (1, 10))
        try journal.returnToPresent()
        #expect(try states(of: dispatcher) == (2, 20))
    }

    @Test func aReplayDerivesTheComputedStoreAndChecksItsRecordedValue() throws {
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.add, payload: 2)
        try dispatcher.batch { batch in
            try batch.dispatch(.add, payload: 1)
            try batch.dispatch(.add, payload: -1)
        }

        let replayed = Dispatcher()
        try replayed.register(DerivationTallyStore.self)
        // NB: another computation: the recorded values of the computed store are checked, not applied.
        try replayed.register(DerivationTenfoldStore.self, computedFrom: DerivationTallyStore.self) { $0.count * 100 }
        let report = try journal.replay(into: replayed)

        #expect(!report.allMatched)
        #expect(report.mismatch?.store == "DerivationTenfoldStore")
        #expect(try replayed.store(DerivationTenfoldStore.self).state == 200)
    }

    @Test(arguments: [false, true]) func anActionThatChangesNothingListsNoStoreInTheJournal(computed: Bool) throws {
        // NB: alone, the store changes its state in place; with a computed store, on a staged copy.
        let dispatcher = computed ? try makeDispatcher() : Dispatcher()
        if !computed { try dispatcher.register(DerivationTallyStore.self) }
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.add, payload: 0)

        #expect(journal.records.last?.changes.isEmpty == true)

        // NB: replayed where no store handles it, the step fails as an unknown action, not as an unknown store.
        let report = try journal.replay(into: Dispatcher(), skippingErrors: true)
        #expect(report.skipped.contains { if case .unknownAction = $0 { true } else { false } })
    }
}

extension ActionName where Payload == Void {
    fileprivate static var bumpAndReadOwnState: Self { "inPlaceBumpAndReadOwnState" }
}

/// A store whose non-throwing closure handler, which changes the state in place, reads the store's own `state`.
final class SelfReadingStore: Store<DerivationTally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: DerivationTally()) }

    /// The store the handler reads, and what it read; only the test's thread touches them.
    nonisolated(unsafe) static weak var current: SelfReadingStore?
    nonisolated(unsafe) static var seen: [Int] = []

    override class var handlers: HandlerTable<DerivationTally> {
        HandlerTable().on(.bumpAndReadOwnState) { state, _ in
            state.count += 1
            if let store = SelfReadingStore.current { SelfReadingStore.seen.append(store.state.count) }
        }
    }
}

@Suite(.serialized) struct InPlaceSelfReadTests {
    @Test func aHandlerChangingItsStateInPlaceMayReadItsOwnStoreWithoutStoppingTheProcess() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(SelfReadingStore.self)
        let store = try dispatcher.store(SelfReadingStore.self)
        SelfReadingStore.current = store
        SelfReadingStore.seen = []
        defer { SelfReadingStore.current = nil }

        try dispatcher.dispatch(.bumpAndReadOwnState)
        try dispatcher.dispatch(.bumpAndReadOwnState)

        #expect(store.state.count == 2)
        // NB: in place, the read returns the state as the handler has changed it so far.
        #expect(SelfReadingStore.seen == [1, 2])
    }
}
