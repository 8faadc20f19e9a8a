import Fluxion
import Observation
import Testing

extension ActionName where Payload == String {
    fileprivate static var rename: Self { "valueTrackingRename" }
}

extension ActionName where Payload == Int {
    fileprivate static var visit: Self { "valueTrackingVisit" }
}

extension ActionName where Payload == Void {
    fileprivate static var visitThenFail: Self { "valueTrackingVisitThenFail" }
}

/// A profile whose values views read one at a time.
final class ValueTrackedStore: Store<Profile>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Profile()) }

    override class var handlers: HandlerTable<Profile> {
        HandlerTable()
            .on(.rename) { state, action in state.name = action.payload }
            .on(.visit) { state, action in state.visits = action.payload }
            .on(.visitThenFail) { state, _ in
                state.visits += 1
                throw TestError("no visit")
            }
    }
}

/// A second store the batch test changes too, so that the batch stages.
final class ValueTrackedLogStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable().on(.visit) { state, action in state.append("visit \(action.payload)") }
    }
}

@Suite struct StoreValueTrackingTests {
    private func makeStore() throws -> (Dispatcher, ValueTrackedStore) {
        let dispatcher = Dispatcher()
        try dispatcher.register(ValueTrackedStore.self)
        try dispatcher.register(ValueTrackedLogStore.self)
        return (dispatcher, try dispatcher.store(ValueTrackedStore.self))
    }

    /// Tracks `read` and counts how often the tracker is told.
    private func track<Value>(_ read: @escaping () -> Value) -> LockedBox<Int> {
        let told = LockedBox(0)
        _ = withObservationTracking(read) { told.withValue { $0 += 1 } }
        return told
    }

    @Test func readsTheValueThroughTheStore() throws {
        let (dispatcher, store) = try makeStore()
        try dispatcher.dispatch(.rename, payload: "Grace")
        #expect(store.name == "Grace")
        #expect(store.address.city == "Lyon")
    }

    @Test func aTrackerOfOneValueIsNotToldWhenAnotherChanges() throws {
        let (dispatcher, store) = try makeStore()
        let told = track { store.visits }

        try dispatcher.dispatch(.rename, payload: "Grace")

        #expect(told.value == 0)
    }

    @Test func aTrackerOfOneValueIsToldWhenItChanges() throws {
        let (dispatcher, store) = try makeStore()
        let told = track { store.visits }

        try dispatcher.dispatch(.rename, payload: "Grace")
        try dispatcher.dispatch(.visit, payload: 3)

        #expect(told.value == 1)
    }

    @Test func settingItsValueToAnEqualOneTellsNobody() throws {
        let (dispatcher, store) = try makeStore()
        try dispatcher.dispatch(.visit, payload: 3)
        let told = track { store.visits }

        try dispatcher.dispatch(.visit, payload: 3)

        #expect(told.value == 0)
    }

    @Test func aTrackerIsToldAfterABatchThatChangedItsValue() throws {
        let (dispatcher, store) = try makeStore()
        let told = track { store.visits }
        let whileBatching = LockedBox(-1)

        try dispatcher.batch { batch in
            try batch.dispatch(.visit, payload: 5)  // reaches both stores: staged
            whileBatching.value = told.value
            try batch.dispatch(.rename, payload: "Grace")
        }

        #expect(whileBatching.value == 0, "not told before the batch commits")
        #expect(told.value == 1)
        #expect(store.visits == 5)
    }

    @Test func aRolledBackActionTellsNobody() throws {
        let (dispatcher, store) = try makeStore()
        let told = track { store.visits }

        #expect(throws: TestError("no visit")) { try dispatcher.dispatch(.visitThenFail) }
        #expect(throws: TestError("rolled back")) {
            try dispatcher.batch { batch in
                try batch.dispatch(.visit, payload: 9)
                throw TestError("rolled back")
            }
        }

        #expect(told.value == 0)
        #expect(store.visits == 0)
    }

    @Test func aValueThatIsNotEquatableIsToldOfEveryChangeOfItsStore() throws {
        let (dispatcher, store) = try makeStore()
        let told = track { store.opaque }

        try dispatcher.dispatch(.rename, payload: "Grace")

        #expect(told.value == 1)
    }

    @Test func readingTheWholeStateIsStillToldOfEveryChange() throws {
        let (dispatcher, store) = try makeStore()
        let told = track { store.state }

        try dispatcher.dispatch(.rename, payload: "Grace")

        #expect(told.value == 1)
    }
}

extension Profile {
    /// A value of the profile that is not `Equatable`.
    var opaque: () -> String { { "opaque" } }
}
