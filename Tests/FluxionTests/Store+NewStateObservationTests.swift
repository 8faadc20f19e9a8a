import Foundation
import Testing

@testable import Fluxion

/// A state whose handler records whether it changed the state in place: its box is then uniquely referenced.
struct Crate: Sendable, Equatable {
    final class Box: Sendable {}

    var box = Box()
    var items: [Int] = []
    var label = ""

    static func == (lhs: Crate, rhs: Crate) -> Bool {
        lhs.items == rhs.items && lhs.label == rhs.label
    }
}

extension ActionName where Payload == Int {
    fileprivate static var pack: Self { "newStatePack" }
}

extension ActionName where Payload == String {
    fileprivate static var relabel: Self { "newStateRelabel" }
}

/// Whether each handler run found the state uniquely referenced, in order.
private let crateWitness = LockedBox<[Bool]>([])

final class CrateStore: Store<Crate>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Crate()) }

    override class var handlers: Handlers {
        HandlerTable()
            .on(.pack) { state, action in
                let isUnique = isKnownUniquelyReferenced(&state.box)
                crateWitness.withValue { $0.append(isUnique) }
                state.items.append(action.payload)
            }
            .on(.relabel) { state, action in state.label = action.payload }
    }
}

/// The tests share `crateWitness`: they run one at a time.
@Suite(.serialized, .timeLimit(.minutes(10))) struct StoreNewStateObservationTests {
    private func makeStore() throws -> (Dispatcher, CrateStore) {
        crateWitness.value = []
        let dispatcher = Dispatcher()
        try dispatcher.register(CrateStore.self)
        return (dispatcher, try dispatcher.store(CrateStore.self))
    }

    @Test func aNewStateObserverHearsEachNewStateInOrderAndTheStateChangesInPlace() throws {
        let (dispatcher, store) = try makeStore()
        let heard = Recorder<[Int]>()
        let token = store.observeNewState { state in heard.append(state.items) }

        try dispatcher.dispatch(.pack, payload: 1)
        try dispatcher.dispatch(.pack, payload: 2)

        #expect(heard.values == [[1], [1, 2]])
        #expect(crateWitness.value == [true, true], "no old state is kept: the handler changes it in place")
        #expect(!store.needsOldState.isSet)
        token.cancel()
    }

    @Test func aWholeChangeObserverMakesTheStoreKeepItsOldState() throws {
        let (dispatcher, store) = try makeStore()
        let newState = store.observeNewState { _ in }
        let whole = store.observe { _ in }

        try dispatcher.dispatch(.pack, payload: 1)
        whole.cancel()
        try dispatcher.dispatch(.pack, payload: 2)

        #expect(crateWitness.value == [false, true], "in place again once the whole-change observer is gone")
        newState.cancel()
    }

    @Test func aNewStateTokenObserverIsNotCalledAfterItsCancelReturnsNorAfterItsTokenIsReleased() throws {
        let (dispatcher, store) = try makeStore()
        let heard = Recorder<String>()
        let cancelled = store.observeNewState { _ in heard.append("cancelled") }
        var released: ObservationToken? = store.observeNewState { _ in heard.append("released") }
        try dispatcher.dispatch(.pack, payload: 1)

        cancelled.cancel()
        released = nil
        try dispatcher.dispatch(.pack, payload: 2)

        #expect(heard.values == ["cancelled", "released"])
        #expect(released == nil)
    }

    @Test func anOwnedNewStateObserverStopsWhenItsOwnerDeallocatesOrItsHandleCancels() throws {
        let (dispatcher, store) = try makeStore()
        let heard = Recorder<String>()
        var owner: ObserverOwner? = ObserverOwner()
        let keeper = ObserverOwner()
        store.observeNewState(owner: owner!) { _, state in heard.append("gone \(state.items.count)") }
        let handle = store.observeNewState(owner: keeper) { _, state in heard.append("kept \(state.items.count)") }
        try dispatcher.dispatch(.pack, payload: 1)

        owner = nil
        try dispatcher.dispatch(.pack, payload: 2)
        handle.cancel()
        try dispatcher.dispatch(.pack, payload: 3)

        #expect(heard.values == ["gone 1", "kept 1", "kept 2"])
        #expect(crateWitness.value == [true, true, true])
    }

    @Test func aNewStateObserverAskingForTheCurrentStateHearsItFirst() throws {
        let (dispatcher, store) = try makeStore()
        let heard = Recorder<[Int]>()
        try dispatcher.dispatch(.pack, payload: 1)
        let token = store.observeNewState(sendingCurrentState: true) { state in heard.append(state.items) }

        try dispatcher.dispatch(.pack, payload: 2)

        #expect(heard.values == [[1], [1, 2]])
        token.cancel()
    }

    @Test func keyPathAndSelectorObserversKeepTheChangeInPlaceAndHearOnlyTheirValuesChanges() throws {
        let (dispatcher, store) = try makeStore()
        let owner = ObserverOwner()
        let heard = Recorder<String>()
        let byKeyPath = store.observe(\.label) { label in heard.append("label \(label.newValue)") }
        store.observe(owner: owner, \.items.count) { _, count in
            heard.append("count \(count.oldValue) → \(count.newValue)")
        }
        let bySelector = store.observe(
            selecting: { $0.items.last },
            isEqual: { $0 == $1 },
            onChange: { last in heard.append("last \(last.newValue ?? 0)") }
        )

        try dispatcher.dispatch(.pack, payload: 7)
        try dispatcher.dispatch(.relabel, payload: "fragile")

        #expect(heard.values == ["count 0 → 1", "last 7", "label fragile"])
        #expect(crateWitness.value == [true])
        #expect(!store.needsOldState.isSet)
        withExtendedLifetime((byKeyPath, bySelector)) {}
    }

    @Test func aNewStateObserverOnAQueueHearsEachStateInOrder() async throws {
        let (dispatcher, store) = try makeStore()
        let queue = DispatchQueue(label: "newStateObserver")
        let heard = Recorder<Int>()
        let token = store.observeNewState(on: queue) { state in heard.append(state.items.count) }

        for item in 1...5 { try dispatcher.dispatch(.pack, payload: item) }
        queue.sync {}

        #expect(heard.values == [1, 2, 3, 4, 5])
        token.cancel()
    }
}
