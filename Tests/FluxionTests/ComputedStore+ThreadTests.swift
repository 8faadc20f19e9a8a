import Fluxion
import Foundation
import Testing

/// Copies the unread count when an article is read, waiting for it first: registered between the
/// computed store's two sources, it makes the computed store run before one of them.
final class UnreadCopyStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().route("computedMarkRead", to: UnreadCopyStore.copy)
    }

    func copy(_ state: inout Int, _ action: Action<Int>) throws {
        state = try waitFor(UnreadCountStore.self).state
    }
}

// NB: the time limit is a hang guard: with three CPU-bound processes beside the suite, a test here took a minute.
@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct ComputedStoreThreadTests {
    @Test func aStoreThatWaitsForTheComputedStoreSeesItComputedFromEverySource() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(FeedStore.self)
        try dispatcher.register(UnreadCopyStore.self)
        try dispatcher.register(ReadStateStore.self)
        try dispatcher.register(UnreadCountStore.self, computedFrom: FeedStore.self, ReadStateStore.self) {
            ComputedStoreTests.unread($0, $1)
        }
        try dispatcher.dispatch("computedPublish", payload: 1)
        try dispatcher.dispatch("computedPublish", payload: 2)

        try dispatcher.dispatch("computedMarkRead", payload: 1)

        #expect(try dispatcher.store(UnreadCopyStore.self).state == 1)
        #expect(try dispatcher.store(UnreadCountStore.self).state == 1)
    }

    /// 10,000 source actions from two threads, in random interleavings: a reader inside `read`, and every
    /// observer of the computed store, always see it agree with its sources.
    ///
    /// NB: on threads of their own, not the concurrency pool's: tight loops there starve other tests' tasks.
    @Test func noReaderSeesTheComputedStoreDisagreeWithItsSources() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(FeedStore.self)
        try dispatcher.register(ReadStateStore.self)
        try dispatcher.register(UnreadCountStore.self, computedFrom: FeedStore.self, ReadStateStore.self) {
            ComputedStoreTests.unread($0, $1)
        }
        let (feed, read) = (try dispatcher.store(FeedStore.self), try dispatcher.store(ReadStateStore.self))
        let unread = try dispatcher.store(UnreadCountStore.self)
        let disagreements = Recorder<String>()
        let token = unread.observe { change in
            let expected = ComputedStoreTests.unread(feed.state, read.state)
            if change.newState != expected { disagreements.append("observer: \(change.newState) for \(expected)") }
        }
        let done = ComputationCounter()
        let perThread = 5_000
        runOnThreads(3) { thread in
            guard thread < 2 else {
                while done.value < 2 {
                    let (feedState, readState, count) = dispatcher.read { (feed.state, read.state, unread.state) }
                    let expected = ComputedStoreTests.unread(feedState, readState)
                    if count != expected { disagreements.append("reader: \(count) for \(expected)") }
                }
                return
            }
            var random = SplitMix64(state: UInt64(thread + 1))
            for index in 0..<perThread {
                let id = thread * perThread + index
                if Bool.random(using: &random) {
                    try? dispatcher.dispatch("computedPublish", payload: id)
                } else {
                    let article = Int.random(in: 0..<id + 1, using: &random)
                    try? dispatcher.dispatch("computedMarkRead", payload: article)
                }
            }
            done.increment()
        }

        #expect(disagreements.values.isEmpty)
        #expect(feed.state.articles.count + read.state.ids.count > 0)
        #expect(unread.state == ComputedStoreTests.unread(feed.state, read.state))
        token.cancel()
    }
}
