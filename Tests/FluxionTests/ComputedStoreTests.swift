import Fluxion
import Foundation
import Observation
import Testing

struct Feed: Codable, Sendable, Equatable {
    var articles: [Int] = []
}

struct ReadState: Codable, Sendable, Equatable {
    var ids: Set<Int> = []
}

extension ActionName where Payload == Int {
    static var publish: Self { "computedPublish" }
    static var markRead: Self { "computedMarkRead" }
    fileprivate static var failAfterPublishing: Self { "computedFailAfterPublishing" }
    fileprivate static var readCount: Self { "computedReadCount" }
}

extension ActionName where Payload == Void {
    /// An action only the read state handles, that the computed store's code never names.
    fileprivate static var markAllRead: Self { "computedMarkAllRead" }
    fileprivate static var touchFeed: Self { "computedTouchFeed" }
}

final class FeedStore: Store<Feed>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Feed()) }

    override class var handlers: HandlerTable<Feed> {
        HandlerTable()
            .on(.publish) { feed, action in feed.articles.append(action.payload) }
            .on(.failAfterPublishing) { feed, action in
                feed.articles.append(action.payload)
                throw TestError("failAfterPublishing")
            }
            .on(.touchFeed) { _, _ in }
    }
}

final class ReadStateStore: Store<ReadState>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: ReadState()) }

    override class var handlers: HandlerTable<ReadState> {
        HandlerTable()
            .on(.markRead) { read, action in read.ids.insert(action.payload) }
            .route(.markAllRead, to: ReadStateStore.markAllRead)
    }

    func markAllRead(_ read: inout ReadState, _ action: Action<Void>) throws {
        read.ids = Set(try dispatcher?.store(FeedStore.self).state.articles ?? [])
    }
}

/// How many articles are not read: computed from the feed and the read state.
final class UnreadCountStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: -1) }
}

/// Whether any article is unread: computed from a computed store.
final class HasUnreadStore: Store<Bool>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: false) }
}

/// A store with a handler: it cannot be computed.
final class HandlingStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.publish) { state, action in state = action.payload }
    }
}

/// Counts computations, to show when they run.
final class ComputationCounter: @unchecked Sendable {  // `count` guarded by `lock`
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

@Suite(.timeLimit(.minutes(10))) struct ComputedStoreTests {
    static func unread(_ feed: Feed, _ read: ReadState) -> Int {
        feed.articles.count { !read.ids.contains($0) }
    }

    /// A dispatcher with the feed, the read state and the unread count computed from both.
    private func makeDispatcher(counting counter: ComputationCounter = ComputationCounter()) throws -> Dispatcher {
        let dispatcher = Dispatcher()
        try dispatcher.register(FeedStore.self)
        try dispatcher.register(ReadStateStore.self)
        try dispatcher.register(UnreadCountStore.self, computedFrom: FeedStore.self, ReadStateStore.self) {
            feed, read in
            counter.increment()
            return Self.unread(feed, read)
        }
        return dispatcher
    }

    @Test func followsEverySourceFromItsFirstState() throws {
        let dispatcher = try makeDispatcher()
        try dispatcher.dispatch(.publish, payload: 1)
        let unread = try dispatcher.store(UnreadCountStore.self)
        #expect(unread.state == 1)

        try dispatcher.dispatch(.publish, payload: 2)
        try dispatcher.dispatch(.markRead, payload: 1)

        #expect(unread.state == 1)
        try dispatcher.dispatch(.publish, payload: 3)
        #expect(unread.state == 2)
    }

    @Test func followsAnActionItsCodeNeverNames() throws {
        let dispatcher = try makeDispatcher()
        let unread = try dispatcher.store(UnreadCountStore.self)
        try dispatcher.dispatch(.publish, payload: 1)
        try dispatcher.dispatch(.publish, payload: 2)

        try dispatcher.dispatch(.markAllRead)

        #expect(unread.state == 0)
    }

    @Test func computesNothingWhenNoSourceChanged() throws {
        let counter = ComputationCounter()
        let dispatcher = try makeDispatcher(counting: counter)
        let unread = try dispatcher.store(UnreadCountStore.self)
        let heard = Recorder<Int>()
        let token = unread.observe { heard.append($0.newState) }
        #expect(counter.value == 1)  // NB: its first state

        try dispatcher.dispatch(.touchFeed)
        #expect(counter.value == 1)
        try dispatcher.dispatch(.markRead, payload: 7)
        #expect(counter.value == 2)

        #expect(heard.values.isEmpty)  // NB: no article, nothing unread: an equal count is no change
        token.cancel()
    }

    @Test func observersHearTheComputedChangeWithTheSourcesAlreadyCommitted() throws {
        let dispatcher = try makeDispatcher()
        let (feed, unread) = (try dispatcher.store(FeedStore.self), try dispatcher.store(UnreadCountStore.self))
        let seen = Recorder<String>()
        let tokens = [
            feed.observe { change in seen.append("feed \(change.newState.articles.count), unread \(unread.state)") },
            unread.observe { change in
                seen.append("unread \(change.oldState)→\(change.newState) \(change.action.name)")
            },
        ]

        try dispatcher.dispatch(.publish, payload: 1)

        #expect(seen.values == ["feed 1, unread 1", "unread 0→1 computedPublish"])
        for token in tokens { token.cancel() }
    }

    @Test func aComputationThatThrowsRollsTheStepBack() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(FeedStore.self)
        try dispatcher.register(UnreadCountStore.self, computedFrom: FeedStore.self) { feed in
            guard feed.articles.count < 2 else { throw TestError("tooMany") }
            return feed.articles.count
        }
        try dispatcher.dispatch(.publish, payload: 1)

        #expect(throws: TestError("tooMany")) { try dispatcher.dispatch(.publish, payload: 2) }

        #expect(try dispatcher.store(FeedStore.self).state.articles == [1])
        #expect(try dispatcher.store(UnreadCountStore.self).state == 1)
    }

    @Test func aSourceThatThrowsLeavesTheComputedStoreAsItWas() throws {
        let dispatcher = try makeDispatcher()
        try dispatcher.dispatch(.publish, payload: 1)

        #expect(throws: TestError("failAfterPublishing")) { try dispatcher.dispatch(.failAfterPublishing, payload: 2) }

        #expect(try dispatcher.store(UnreadCountStore.self).state == 1)
    }

    @Test func aBatchsInlineMutationOfASourceIsFollowed() throws {
        let dispatcher = try makeDispatcher()
        let unread = try dispatcher.store(UnreadCountStore.self)

        try dispatcher.batch { batch in
            try batch.mutate(FeedStore.self) { $0.articles = [1, 2, 3] }
            #expect(unread.state == 3)  // NB: the batch's own code reads the states it makes
            try batch.dispatch(.markRead, payload: 2)
        }

        #expect(unread.state == 2)
    }

    @Test func aComputedStoreCanBeTheSourceOfAnother() throws {
        let dispatcher = try makeDispatcher()
        try dispatcher.register(HasUnreadStore.self, computedFrom: UnreadCountStore.self) { $0 > 0 }
        let hasUnread = try dispatcher.store(HasUnreadStore.self)
        #expect(!hasUnread.state)

        try dispatcher.dispatch(.publish, payload: 1)
        #expect(hasUnread.state)
        try dispatcher.dispatch(.markAllRead)
        #expect(!hasUnread.state)
    }

    @Test func takesAnyNumberOfSources() throws {
        let dispatcher = try makeDispatcher()
        try dispatcher.register(
            HasUnreadStore.self, computedFrom: FeedStore.self, ReadStateStore.self, UnreadCountStore.self
        ) { feed, read, unread in
            !feed.articles.isEmpty && read.ids.count < feed.articles.count && unread > 0
        }

        try dispatcher.dispatch(.publish, payload: 1)

        #expect(try dispatcher.store(HasUnreadStore.self).state)
    }

    @Test func isRefusedWithAHandlerTableASourceNotRegisteredOrItselfAsSource() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(FeedStore.self)

        #expect(throws: FluxionError.computedStoreHandlesActions("HandlingStore")) {
            try dispatcher.register(HandlingStore.self, computedFrom: FeedStore.self) { $0.articles.count }
        }
        #expect(throws: FluxionError.sourceNotRegistered("ReadStateStore", derivedStore: "UnreadCountStore")) {
            try dispatcher.register(UnreadCountStore.self, computedFrom: ReadStateStore.self) { $0.ids.count }
        }
        #expect(throws: FluxionError.derivationCycle(["UnreadCountStore", "UnreadCountStore"])) {
            try dispatcher.register(UnreadCountStore.self, computedFrom: UnreadCountStore.self) { $0 }
        }
        #expect(!dispatcher.isRegistered(UnreadCountStore.self))
    }

    @Test func observationIsToldWhenTheComputedStateChanges() throws {
        let dispatcher = try makeDispatcher()
        let unread = try dispatcher.store(UnreadCountStore.self)
        let told = Recorder<Int>()
        _ = withObservationTracking {
            unread.state
        } onChange: {
            told.append(0)
        }

        try dispatcher.dispatch(.publish, payload: 1)

        #expect(told.values.count == 1)
    }

    @Test func theJournalRecordsItAndReplayAndTravelKeepItInStep() throws {
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.publish, payload: 1)
        try dispatcher.dispatch(.publish, payload: 2)
        try dispatcher.dispatch(.markRead, payload: 1)
        #expect(journal.records.last?.changes.map(\.store) == ["ReadStateStore", "UnreadCountStore"])

        let report = try journal.replay(into: makeDispatcher())
        #expect(report.allMatched)

        try journal.stepBack()
        #expect(try dispatcher.store(UnreadCountStore.self).state == 2)
        try journal.returnToPresent()
        #expect(try dispatcher.store(UnreadCountStore.self).state == 1)
    }
}
