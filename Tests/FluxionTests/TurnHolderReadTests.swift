import Fluxion
import Observation
import Testing

extension ActionName where Payload == Int {
    fileprivate static var bumpTally: Self { "turnHolderBumpTally" }
}

extension ActionName where Payload == Void {
    fileprivate static var peekTally: Self { "turnHolderPeekTally" }
}

/// Counts `.bumpTally`s.
private final class TallyStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.bumpTally) { state, action in state += action.payload }
    }
}

/// Copies the tally on `.peekTally`, reading it in its handler: a store the action does not reach.
private final class PeekStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().route(.peekTally, to: PeekStore.peek)
    }

    func peek(_ state: inout Int, _ action: Action<Void>) throws {
        state = try waitFor(TallyStore.self).state
    }
}

/// A handler on the thread that holds the dispatch turn reads other stores' states without their lock:
/// what it reads, and what Observation learns of it, is as through the lock.
@Suite struct TurnHolderReadTests {
    private func makeDispatcher() throws -> Dispatcher {
        let dispatcher = Dispatcher()
        try dispatcher.register(TallyStore.self)
        try dispatcher.register(PeekStore.self)
        return dispatcher
    }

    @Test func aHandlerReadsTheCommittedStateOfAStoreTheActionDoesNotReach() throws {
        let dispatcher = try makeDispatcher()
        try dispatcher.dispatch(.bumpTally, payload: 3)

        try dispatcher.dispatch(.peekTally)

        #expect(try dispatcher.store(PeekStore.self).state == 3)
    }

    @Test func aReadInsideAHandlerIsTrackedByObservation() throws {
        let dispatcher = try makeDispatcher()
        let told = Recorder<Int>()
        withObservationTracking {
            try? dispatcher.dispatch(.peekTally)
        } onChange: {
            told.append(1)
        }

        try dispatcher.dispatch(.bumpTally, payload: 1)

        #expect(told.values == [1])
    }

    @Test func aStoresWaitForFromAnObserverThrows() throws {
        let dispatcher = try makeDispatcher()
        let peek = try dispatcher.store(PeekStore.self)
        let tally = try dispatcher.store(TallyStore.self)
        let errors = Recorder<FluxionError>()
        let token = tally.observe { _ in
            do {
                try peek.waitFor(TallyStore.self)
            } catch let error as FluxionError {
                errors.append(error)
            } catch {
                Issue.record(error)
            }
        }

        try dispatcher.dispatch(.bumpTally, payload: 1)

        withExtendedLifetime(token) {}
        #expect(errors.values == [.waitForOutsideDispatch("TallyStore")])
    }
}
