import Foundation
import Testing

@testable import Fluxion

/// How a store keeps its list of observers as they come and go.
@Suite(.timeLimit(.minutes(10))) struct StoreObserverListTests {
    private func count(_ store: CountingStore) -> Int {
        store.lock.withLock { store.observers.count }
    }

    @Test func anObserverAddedAndCancelledInTurnLeavesTheListAsItWas() throws {
        let (_, store) = try makeCounterStore()
        let live = (0..<3).map { _ in store.observe { _ in } }
        var longest = 0

        for _ in 0..<20 {
            let token = store.observe { _ in }
            token.cancel()
            longest = max(longest, count(store))
        }

        #expect(longest == 3, "the last slot is dropped, not left empty")
        withExtendedLifetime(live) {}
    }

    @Test func cancellingTheLastObserverDropsTheEmptySlotsBeforeItAndTheOthersStillHearInOrder() throws {
        let (dispatcher, store) = try makeCounterStore()
        let owner = ObserverOwner()
        let heard = Recorder<String>()
        let first = store.observe { _ in heard.append("first") }
        let second = store.observe(owner: owner) { _, _ in heard.append("second") }
        let third = store.observe { _ in heard.append("third") }

        second.cancel()
        #expect(count(store) == 3, "a slot in the middle is left empty")
        third.cancel()
        #expect(count(store) == 1)
        let fourth = store.observe { _ in heard.append("fourth") }
        try dispatcher.dispatch(.counterAdd, payload: 1)
        second.cancel()  // again: its old slot is another observer's now, which stays

        try dispatcher.dispatch(.counterAdd, payload: 2)
        #expect(heard.values == ["first", "fourth", "first", "fourth"])
        withExtendedLifetime((first, fourth)) {}
    }

    @Test func aStoreWhoseObserversAreAllCancelledNoLongerKeepsItsOldState() throws {
        let (_, store) = try makeCounterStore()
        let first = store.observe { _ in }
        let second = store.observe { _ in }
        #expect(store.needsOldState.isSet)

        first.cancel()
        second.cancel()

        #expect(count(store) == 0)
        #expect(!store.needsOldState.isSet, "its handlers change the state in place again")
    }

    @Test func aTokenCancelledOnceIsCancelledAndCancellingAgainDoesNothing() throws {
        let (dispatcher, store) = try makeCounterStore()
        let heard = Recorder<Int>()
        let token = store.observe { change in heard.append(change.newState.total) }
        try dispatcher.dispatch(.counterAdd, payload: 1)

        token.cancel()
        token.cancel()
        try dispatcher.dispatch(.counterAdd, payload: 2)

        #expect(token.isCancelled)
        #expect(heard.values == [1])
        #expect(count(store) == 0)
    }
}
