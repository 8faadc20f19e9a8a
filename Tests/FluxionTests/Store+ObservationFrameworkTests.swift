import Fluxion
import Observation
import Testing

extension ActionName where Payload == Int {
    fileprivate static var setVisits: Self { "trackedSetVisits" }
}

extension ActionName where Payload == Void {
    fileprivate static var failVisits: Self { "trackedFailVisits" }
    fileprivate static var tick: Self { "trackedTick" }
}

/// A store whose state tests read inside `withObservationTracking`.
final class TrackedStore: Store<Profile>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Profile()) }

    override class var handlers: HandlerTable<Profile> {
        HandlerTable()
            .on(.setVisits) { state, action in state.visits = action.payload }
            .on(.failVisits) { state, _ in
                state.visits = -1
                throw TestError("tracked")
            }
    }
}

/// A state that is not `Equatable`: every change of it is a change.
struct Ticks: Sendable {
    var count = 0
}

/// A store whose one handler cannot throw, so that it changes the state in place when it can.
final class TickStore: Store<Ticks>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Ticks()) }

    override class var handlers: HandlerTable<Ticks> {
        HandlerTable().on(.tick) { state, _ in state.count += 1 }
    }
}

@Suite struct StoreObservationFrameworkTests {
    @Test func readingTheStateInsideTrackingIsToldOfTheNextChange() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TrackedStore.self)
        let store = try dispatcher.store(TrackedStore.self)
        let seen = Recorder<Int>()

        let visits = withObservationTracking {
            store.state.visits
        } onChange: {
            seen.append(store.state.visits)
        }
        try dispatcher.dispatch(.setVisits, payload: 3)
        try dispatcher.dispatch(.setVisits, payload: 4)

        #expect(visits == 0)
        #expect(seen.values == [3], "told once, after the new state is committed")
    }

    @Test func aThrowingHandlerDoesNotWakeTracking() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TrackedStore.self)
        let store = try dispatcher.store(TrackedStore.self)
        let told = LockedBox(0)

        _ = withObservationTracking {
            store.state
        } onChange: {
            told.withValue { $0 += 1 }
        }
        #expect(throws: TestError("tracked")) { try dispatcher.dispatch(.failVisits) }
        #expect(told.value == 0)

        try dispatcher.dispatch(.setVisits, payload: 1)
        #expect(told.value == 1)
    }

    @Test func trackingAnotherStoreIsNotWoken() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TrackedStore.self)
        try dispatcher.register(ProfileStore.self)
        let tracked = try dispatcher.store(TrackedStore.self)
        let other = try dispatcher.store(ProfileStore.self)
        let told = LockedBox(0)

        _ = withObservationTracking {
            other.state
        } onChange: {
            told.withValue { $0 += 1 }
        }
        try dispatcher.dispatch(.setVisits, payload: 1)

        #expect(told.value == 0)
        #expect(tracked.state.visits == 1)
    }

    @Test func aStateThatIsNotEquatableChangedInPlaceAfterItWasReadIsTold() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TickStore.self)
        let store = try dispatcher.store(TickStore.self)
        let told = LockedBox(0)

        let ticks = withObservationTracking {
            store.state.count
        } onChange: {
            told.withValue { $0 += 1 }
        }
        try dispatcher.dispatch(.tick)  // no observer, one store, a handler that cannot throw: in place

        #expect(ticks == 0)
        #expect(told.value == 1)
        #expect(store.state.count == 1)
    }
}
