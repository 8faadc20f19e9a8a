import Fluxion
import Foundation
import Testing

/// A computed store with an archive: written for readers outside the app, never restored.
@Suite(.timeLimit(.minutes(10))) struct ComputedStorePersistenceTests {
    /// A dispatcher whose feed and read state are restored from `storage`, and whose unread count is computed
    /// from them and saved under "unread".
    private func dispatcher(on storage: InMemoryStateStorage) throws -> Dispatcher {
        let dispatcher = Dispatcher()
        try dispatcher.register(FeedStore.self, persistence: Persistence(storage: storage, key: "feed"))
        try dispatcher.register(ReadStateStore.self, persistence: Persistence(storage: storage, key: "read"))
        try dispatcher.register(
            UnreadCountStore.self, computedFrom: FeedStore.self, ReadStateStore.self,
            persistence: Persistence(storage: storage, key: "unread")
        ) { feed, read in feed.articles.count { !read.ids.contains($0) } }
        return dispatcher
    }

    @Test func aPersistedComputedStoreSavesEachStateItComputes() throws {
        let storage = InMemoryStateStorage()
        let dispatcher = try dispatcher(on: storage)

        try dispatcher.dispatch(.publish, payload: 1)
        try dispatcher.dispatch(.publish, payload: 2)
        try dispatcher.dispatch(.markRead, payload: 1)
        dispatcher.flush()

        let saved = try #require(storage.archives["unread"])
        #expect(try unarchive(Int.self, from: saved).state == 1)
    }

    @Test func aPersistedComputedStoreSavesTheStateItStartsWith() throws {
        let storage = InMemoryStateStorage(["feed": try archive(Feed(articles: [1, 2, 3]))])
        let dispatcher = try dispatcher(on: storage)

        #expect(try dispatcher.store(UnreadCountStore.self).state == 3)
        dispatcher.flush()

        let saved = try #require(storage.archives["unread"])
        #expect(try unarchive(Int.self, from: saved).state == 3)
    }

    @Test func aPersistedComputedStoreIsComputedFromItsRestoredSourcesNotFromItsOwnArchive() throws {
        let storage = InMemoryStateStorage([
            "feed": try archive(Feed(articles: [1, 2])),
            "read": try archive(ReadState(ids: [2])),
            "unread": try archive(40),  // NB: left by an earlier version of the computation
        ])
        let dispatcher = try dispatcher(on: storage)

        #expect(try dispatcher.store(UnreadCountStore.self).state == 1)
        dispatcher.flush()
        #expect(try unarchive(Int.self, from: #require(storage.archives["unread"])).state == 1)
    }

    @Test func aComputedStoreCannotTakeAKeyAnotherStoreArchivesUnder() throws {
        let storage = InMemoryStateStorage()
        let dispatcher = Dispatcher()
        try dispatcher.register(FeedStore.self, persistence: Persistence(storage: storage, key: "shared"))
        try dispatcher.register(ReadStateStore.self)

        #expect(throws: PersistenceError.self) {
            try dispatcher.register(
                UnreadCountStore.self, computedFrom: FeedStore.self, ReadStateStore.self,
                persistence: Persistence(storage: storage, key: "shared")
            ) { feed, _ in feed.articles.count }
        }
        // NB: refused whole: the type can be registered again, and the key stays with the feed.
        try dispatcher.register(UnreadCountStore.self, computedFrom: FeedStore.self) { $0.articles.count }
        #expect(try dispatcher.store(UnreadCountStore.self).state == 0)
    }

    @Test func aComputedStoreWithAHandlerTableIsRefusedAndItsKeyFreed() throws {
        let storage = InMemoryStateStorage()
        let dispatcher = Dispatcher()
        try dispatcher.register(FeedStore.self)

        #expect(throws: FluxionError.computedStoreHandlesActions("ReadStateStore")) {
            try dispatcher.register(
                ReadStateStore.self, computedFrom: FeedStore.self,
                persistence: Persistence(storage: storage, key: "read")
            ) { feed in ReadState(ids: Set(feed.articles)) }
        }
        try dispatcher.register(ReadStateStore.self, persistence: Persistence(storage: storage, key: "read"))
    }
}
