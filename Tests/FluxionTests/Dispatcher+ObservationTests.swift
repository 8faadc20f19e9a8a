import Fluxion
import Foundation
import Testing

extension ActionName where Payload == Int {
    fileprivate static var everywhere: Self { "observeEverywhere" }
}

/// Handles `.everywhere` and `.counterAdd` with a tally of its own.
final class SecondCountingStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable()
            .on(.counterAdd) { state, action in state.add(action.payload * 10) }
            .on(.everywhere) { state, action in state.add(action.payload) }
    }
}

/// A dispatcher with ``CountingStore`` then ``SecondCountingStore`` registered, neither created.
private func makeTwoStores() throws -> Dispatcher {
    let dispatcher = Dispatcher()
    try dispatcher.register(CountingStore.self)
    try dispatcher.register(SecondCountingStore.self)
    return dispatcher
}

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct DispatcherObservationTests {
    @Test func anOwnerObserverHearsEachStoresChangeInRegistrationOrder() throws {
        let dispatcher = try makeTwoStores()
        let owner = ObserverOwner()
        let seen = Recorder<String>()
        dispatcher.observe(owner: owner) { _, change in
            let tally = change.change(as: Tally.self)
            seen.append(
                "\(change.storeType) \(change.action.name) \(tally?.oldState.total ?? -1)→\(tally?.newState.total ?? -1)"
            )
        }

        try dispatcher.dispatch(.counterAdd, payload: 1)
        try dispatcher.dispatch(.everywhere, payload: 5)

        #expect(
            seen.values == [
                "CountingStore supportCounterAdd 0→1",
                "SecondCountingStore supportCounterAdd 0→10",
                "SecondCountingStore observeEverywhere 10→15",
            ])
        withExtendedLifetime(owner) {}
    }

    @Test func theChangeCarriesTheStore() throws {
        let dispatcher = try makeTwoStores()
        let changes = Recorder<AnyStoreChange>()
        let token = dispatcher.observe { changes.append($0) }

        #expect(throws: TestError("counterFail")) { try dispatcher.dispatch(.counterFail) }
        #expect(changes.values.isEmpty)  // a rejected action is not a change
        try dispatcher.dispatch(.counterAdd, payload: 1)

        let change = try #require(changes.values.first)
        #expect(change.store(as: CountingStore.self) === (try dispatcher.store(CountingStore.self)))
        #expect(change.store(as: SecondCountingStore.self) == nil)
        #expect(change.change(as: Int.self) == nil)
        token.cancel()
    }

    @Test func anOwnerObserverStopsWhenItsOwnerDeallocates() throws {
        let dispatcher = try makeTwoStores()
        let calls = LockedBox(0)
        weak var weakOwner: ObserverOwner?
        do {
            let owner = ObserverOwner()
            weakOwner = owner
            dispatcher.observe(owner: owner) { _, _ in calls.withValue { $0 += 1 } }
            try dispatcher.dispatch(.counterAdd, payload: 1)
        }
        try dispatcher.dispatch(.counterAdd, payload: 1)

        #expect(weakOwner == nil)
        #expect(calls.value == 2, "two stores changed once, while the owner lived")
    }

    @Test func aCancelledOrReleasedTokenHearsNothingMore() throws {
        let dispatcher = try makeTwoStores()
        let kept = Recorder<Int>()
        let released = Recorder<Int>()
        let token = dispatcher.observe { change in kept.append(change.change(as: Tally.self)?.newState.total ?? -1) }
        var temporary: ObservationToken? = dispatcher.observe {
            released.append($0.change(as: Tally.self)?.newState.total ?? -1)
        }

        try dispatcher.dispatch(.everywhere, payload: 1)
        temporary = nil
        try dispatcher.dispatch(.everywhere, payload: 1)
        token.cancel()
        try dispatcher.dispatch(.everywhere, payload: 1)

        #expect(kept.values == [1, 2])
        #expect(released.values == [1])
        #expect(token.isCancelled)
        #expect(temporary == nil)
    }

    @Test func storesCreatedAfterTheObserverAreObservedToo() throws {
        let dispatcher = try makeTwoStores()
        _ = try dispatcher.store(CountingStore.self)
        let names = Recorder<String>()
        let token = dispatcher.observe { names.append("\($0.storeType)") }

        try dispatcher.dispatch(.everywhere, payload: 1)  // creates SecondCountingStore

        #expect(names.values == ["SecondCountingStore"])
        token.cancel()
    }

    @Test func sendingCurrentStateCallsOnceForEachCreatedStoreFirst() throws {
        let dispatcher = try makeTwoStores()
        try dispatcher.dispatch(.counterAdd, payload: 2)
        let seen = Recorder<String>()

        let token = dispatcher.observe(sendingCurrentState: true) { change in
            let total = change.change(as: Tally.self)?.newState.total ?? -1
            seen.append("\(change.storeType) \(total) \(change.isCurrentState)")
        }
        try dispatcher.dispatch(.everywhere, payload: 1)

        #expect(
            seen.values == [
                "CountingStore 2 true",
                "SecondCountingStore 20 true",
                "SecondCountingStore 21 false",
            ])
        token.cancel()
    }

    @Test func anObserverOnAQueueHearsEveryChangeInOrder() throws {
        let dispatcher = try makeTwoStores()
        let queue = DispatchQueue(label: "all-stores", attributes: .concurrent)
        let seen = Recorder<Int>()
        let arrived = ArrivalCounter()
        let token = dispatcher.observe(on: queue) { change in
            dispatchPrecondition(condition: .onQueue(queue))
            if change.storeType == SecondCountingStore.self {
                seen.append(change.change(as: Tally.self)?.newState.total ?? -1)
            }
            arrived.arrive()
        }

        for _ in 0..<500 { try dispatcher.dispatch(.everywhere, payload: 1) }
        arrived.wait(for: 500)

        #expect(seen.values == Array(1...500))
        token.cancel()
    }

    @Test @MainActor func aMainActorObserverRunsOnTheMainActor() async throws {
        let dispatcher = try makeTwoStores()
        let owner = ObserverOwner()
        let seen = Recorder<Int>()
        dispatcher.observeOnMainActor(owner: owner) { _, change in
            MainActor.assertIsolated()
            seen.append(change.change(as: Tally.self)?.newState.total ?? -1)
        }
        let token = dispatcher.observeOnMainActor { _ in MainActor.assertIsolated() }

        try dispatcher.dispatch(.everywhere, payload: 3)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }

        #expect(seen.values == [3])
        token.cancel()
        withExtendedLifetime(owner) {}
    }
}
