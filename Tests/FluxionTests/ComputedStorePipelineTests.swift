import Fluxion
import Foundation
import Testing

// The cases of issue 42's "Why", each as an example of what a computed store (and a change that leaves a
// state equal) does on a path that sets a state other than a handler. Each failed on the code of 2026-12-01;
// they are the regression tests of the derive stage (issue 42). The model finds each too
// (`ComputedStoreRegressionTests` in ModelTests).

extension ActionName where Payload == Int {
    fileprivate static var pipelineAdd: Self { "pipelineAdd" }
    fileprivate static var pipelineBump: Self { "pipelineBump" }
    fileprivate static var pipelineKeepMax: Self { "pipelineKeepMax" }
}

/// A counter: the source of the computed stores here.
private final class PipelineCounterStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.pipelineAdd) { count, action in count += action.payload }
    }
}

/// Ten times the counter: computed.
private final class PipelineTenfoldStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: -1) }
}

/// Ten times the tenfold store: computed from a computed store.
// NB: its state is locked by Store.
private final class PipelineHundredfoldStore: Store<Int>, DefaultInitializable, @unchecked Sendable {
    init() { super.init(initialState: -1) }
}

/// Another store of `pipelineAdd`, registered after the counter: its handler runs after the counter's, and reads
/// the counter and the tenfold store inside `read {}`.
private final class PipelineTallyStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    /// What each `read {}` of its handler saw: `counter c, tenfold t`.
    let reads = Recorder<String>()

    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.pipelineAdd, in: PipelineTallyStore.self) { store, tally, action in
            tally += action.payload
            guard let dispatcher = store.dispatcher else { return }
            // NB: `try?`: the counter and the tenfold store may be unregistered; the tally still counts.
            let seen = dispatcher.read {
                "counter \((try? dispatcher.store(PipelineCounterStore.self).state).map(String.init) ?? "none"), "
                    + "tenfold \((try? dispatcher.store(PipelineTenfoldStore.self).state).map(String.init) ?? "none")"
            }
            store.reads.append(seen)
        }
    }
}

/// A store whose handler cannot throw, alone on its action: with no observer it changes its state in place.
private final class PipelineInPlaceStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    /// The store the handler reads, as a closure that captured its store would.
    static let captured = LockedBox<PipelineInPlaceStore?>(nil)

    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable()
            .on(.pipelineBump) { count, action in
                count += action.payload
                _ = captured.value?.state
            }
            .on(.pipelineKeepMax) { count, action in count = max(count, action.payload) }
    }
}

@Suite(.timeLimit(.minutes(10))) struct ComputedStorePipelineTests {
    /// A dispatcher with the counter, the tally, the tenfold store computed from the counter and the
    /// hundredfold store computed from the tenfold one.
    private func makeDispatcher(counting computations: Recorder<Int> = Recorder()) throws -> Dispatcher {
        let dispatcher = Dispatcher()
        try dispatcher.register(PipelineCounterStore.self)
        try dispatcher.register(PipelineTallyStore.self)
        try registerTenfold(on: dispatcher, counting: computations)
        try dispatcher.register(PipelineHundredfoldStore.self, computedFrom: PipelineTenfoldStore.self) { $0 * 10 }
        return dispatcher
    }

    private func registerTenfold(on dispatcher: Dispatcher, counting computations: Recorder<Int> = Recorder()) throws {
        try dispatcher.register(PipelineTenfoldStore.self, computedFrom: PipelineCounterStore.self) { count in
            computations.append(count)
            return count * 10
        }
    }

    @Test func aBatchThatBringsASourceBackLeavesItsComputedStoreInStepAndUnheard() throws {
        let dispatcher = try makeDispatcher()
        let (counter, tenfold) = (
            try dispatcher.store(PipelineCounterStore.self), try dispatcher.store(PipelineTenfoldStore.self)
        )
        let heard = Recorder<Int>()
        let token = tenfold.observe { heard.append($0.newState) }
        defer { token.cancel() }

        try dispatcher.batch { batch in
            try batch.dispatch(.pipelineAdd, payload: 1)
            try batch.dispatch(.pipelineAdd, payload: -1)
        }

        #expect(counter.state == 0)
        #expect(tenfold.state == 0)
        #expect(heard.values.isEmpty)
    }

    @Test func inlineMutationsThatBringASourceBackLeaveItsComputedStoreInStep() throws {
        let dispatcher = try makeDispatcher()
        let (tenfold, hundredfold) = (
            try dispatcher.store(PipelineTenfoldStore.self), try dispatcher.store(PipelineHundredfoldStore.self)
        )

        try dispatcher.batch { batch in
            try batch.mutate(PipelineCounterStore.self) { $0 += 5 }
            try batch.mutate(PipelineCounterStore.self) { $0 -= 5 }
        }

        #expect(tenfold.state == 0)
        #expect(hundredfold.state == 0)
    }

    @Test func aBatchsMutationOfAComputedStoreIsAFluxionErrorNamingItAndChangesNothing() throws {
        let dispatcher = try makeDispatcher()
        let (counter, tenfold) = (
            try dispatcher.store(PipelineCounterStore.self), try dispatcher.store(PipelineTenfoldStore.self)
        )
        let journal = try Journal(recording: dispatcher)
        defer { journal.stop() }
        let mutationError = LockedBox<(any Error)?>(nil)

        var thrown: (any Error)?
        do {
            try dispatcher.batch { batch in
                try batch.dispatch(.pipelineAdd, payload: 2)
                do {
                    try batch.mutate(PipelineTenfoldStore.self) { $0 = 999 }
                } catch {
                    mutationError.value = error
                    throw error
                }
            }
        } catch {
            thrown = error
        }

        #expect(mutationError.value is FluxionError)
        #expect("\(mutationError.value.map { "\($0)" } ?? "")".contains("PipelineTenfoldStore"))
        #expect(thrown is FluxionError)
        #expect(counter.state == 0)
        #expect(tenfold.state == 0)
        #expect(journal.records.isEmpty)
    }

    @Test func unregisteringASourceUnregistersItsComputedStoresAndRegisteredAgainEachStartsFromItsSources()
        throws
    {
        let dispatcher = try makeDispatcher()
        try dispatcher.dispatch(.pipelineAdd, payload: 5)

        dispatcher.unregister(PipelineCounterStore.self)

        #expect(!dispatcher.isRegistered(PipelineTenfoldStore.self))
        #expect(!dispatcher.isRegistered(PipelineHundredfoldStore.self))
        try dispatcher.register(PipelineCounterStore.self)
        #expect(try dispatcher.store(PipelineCounterStore.self).state == 0)
        try registerTenfold(on: dispatcher)
        #expect(try dispatcher.store(PipelineTenfoldStore.self).state == 0)
    }

    @Test func unregisteringASourceBreaksNoActionTheOtherStoresHandle() throws {
        let dispatcher = try makeDispatcher()
        let tally = try dispatcher.store(PipelineTallyStore.self)

        dispatcher.unregister(PipelineCounterStore.self)

        #expect(throws: Never.self) { try dispatcher.dispatch(.pipelineAdd, payload: 3) }
        #expect(tally.state == 3)
    }

    @Test func timeTravelDerivesAComputedStoreRegisteredAfterItsSourcesFirstStep() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(PipelineCounterStore.self)
        let journal = try Journal(recording: dispatcher)
        defer { journal.stop() }
        try dispatcher.dispatch(.pipelineAdd, payload: 1)
        try registerTenfold(on: dispatcher)
        let tenfold = try dispatcher.store(PipelineTenfoldStore.self)
        try dispatcher.dispatch(.pipelineAdd, payload: 1)
        #expect(tenfold.state == 20)

        try journal.travel(to: 0)

        #expect(try dispatcher.store(PipelineCounterStore.self).state == 0)
        #expect(tenfold.state == 0)
        try journal.returnToPresent()
        #expect(tenfold.state == 20)
    }

    @Test func readInsideAHandlerSeesTheComputedStoreDerivedFromTheStagedSource() throws {
        let dispatcher = try makeDispatcher()
        let tally = try dispatcher.store(PipelineTallyStore.self)

        try dispatcher.dispatch(.pipelineAdd, payload: 1)

        #expect(tally.reads.values == ["counter 1, tenfold 10"])
    }

    @Test func aBatchOfTenActionsComputesItsComputedStoreOnce() throws {
        // NB: no tally, whose handler reads the tenfold store inside the step (each read computes it then).
        let computations = Recorder<Int>()
        let dispatcher = Dispatcher()
        try dispatcher.register(PipelineCounterStore.self)
        try registerTenfold(on: dispatcher, counting: computations)
        _ = try dispatcher.store(PipelineTenfoldStore.self)
        computations.removeAll()  // NB: its first state

        try dispatcher.batch { batch in
            for _ in 0..<10 { try batch.dispatch(.pipelineAdd, payload: 1) }
        }

        #expect(try dispatcher.store(PipelineTenfoldStore.self).state == 100)
        #expect(computations.values == [10])
    }

    @Test func aHandlerChangingItsStateInPlaceReadsItsOwnStoreWithoutATrap() async {
        await #expect(processExitsWith: .success) {
            let dispatcher = Dispatcher()
            try dispatcher.register(PipelineInPlaceStore.self)
            let store = try dispatcher.store(PipelineInPlaceStore.self)
            PipelineInPlaceStore.captured.value = store
            try dispatcher.dispatch(.pipelineBump, payload: 1)
            guard store.state == 1 else { exit(1) }
        }
    }

    @Test func aJournalLineOfAnActionThatLeftAStateEqualListsNoStoreAndReplaysAsAnUnknownAction() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(PipelineInPlaceStore.self)
        let journal = try Journal(recording: dispatcher)
        defer { journal.stop() }

        try dispatcher.dispatch(.pipelineKeepMax, payload: 0)

        #expect(journal.records.count == 1)
        #expect(journal.records.last?.changes.isEmpty == true)
        #expect(throws: JournalError.unknownAction(line: 2, name: "pipelineKeepMax")) {
            try journal.replay(into: Dispatcher())
        }
    }
}
