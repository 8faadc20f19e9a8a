import Fluxion
import Foundation
import Testing

@Suite struct NotificationBridgeTests {
    @Test func aStorePostsEachChangeWithItselfAsObjectAndTheChangeInUserInfo() throws {
        let (dispatcher, store) = try makeCounterStore()
        let center = NotificationCenter()
        let received = Recorder<Int>()
        let senders = Recorder<Bool>()
        let observer = center.addObserver(forName: .fluxionStoreDidChange, object: store, queue: nil) { note in
            let change = note.userInfo?[AnyStoreChange.userInfoKey] as? AnyStoreChange
            received.append(change?.change(as: Tally.self)?.newState.total ?? -1)
            senders.append(note.object as AnyObject? === store)
        }
        defer { center.removeObserver(observer) }

        let posting = store.postNotifications(to: center)
        try dispatcher.dispatch(.counterAdd, payload: 2)
        posting.cancel()
        try dispatcher.dispatch(.counterAdd, payload: 2)

        #expect(received.values == [2])
        #expect(senders.values == [true])
    }

    @Test func aDispatcherPostsForEveryStore() throws {
        let (dispatcher, store) = try makeCounterStore()
        let center = NotificationCenter()
        let received = Recorder<String>()
        let observer = center.addObserver(forName: .fluxionStoreDidChange, object: nil, queue: nil) { note in
            let change = note.userInfo?[AnyStoreChange.userInfoKey] as? AnyStoreChange
            received.append("\(change?.storeType as Any) \(note.object as AnyObject? === store)")
        }
        defer { center.removeObserver(observer) }

        let posting = dispatcher.postNotifications(to: center)
        try dispatcher.dispatch(.counterAdd, payload: 1)
        posting.cancel()

        #expect(received.values == ["Optional(FluxionTests.CountingStore) true"])
    }

    @Test func nothingIsPostedUnlessAsked() throws {
        let (dispatcher, _) = try makeCounterStore()
        let center = NotificationCenter()
        let received = LockedBox(0)
        let observer = center.addObserver(forName: .fluxionStoreDidChange, object: nil, queue: nil) { _ in
            received.withValue { $0 += 1 }
        }
        defer { center.removeObserver(observer) }

        try dispatcher.dispatch(.counterAdd, payload: 1)

        #expect(received.value == 0)
    }
}
