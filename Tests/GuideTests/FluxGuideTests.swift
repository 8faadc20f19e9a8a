import Fluxion
import FluxionTesting
import Testing

/// A message source that answers with a fixed list.
private struct FixedMessages: MessageSource {
    var texts: [String]

    func newMessages() async throws -> [String] { texts }
}

/// The feature of "Migrating from Flux (JavaScript)", run.
@Suite(.timeLimit(.minutes(10))) struct FluxGuideTests {
    @Test func theUnreadCountFollowsTheMessages() throws {
        let badge = Badge()
        // article-use-begin
        let dispatcher = Dispatcher()
        try dispatcher.register(MessageStore.self)
        try dispatcher.register(UnreadCountStore.self)

        let unread = try dispatcher.store(UnreadCountStore.self)
        unread.observe(owner: badge) { badge, change in
            badge.show(change.newState.count)  // after every store has handled the action
        }

        try dispatcher.dispatch(.receiveMessage, payload: "Hello")  // badge shows 1
        try dispatcher.dispatch(.markAllRead)  // badge shows 0
        // article-use-end
        #expect(badge.shown.values == [1, 0])
        withExtendedLifetime(badge) {}
    }

    @Test func aDispatchFromAnObserverRunsAfterTheCurrentAction() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(MessageStore.self)
        try dispatcher.register(UnreadCountStore.self)
        let messages = try dispatcher.store(MessageStore.self)
        let unread = try dispatcher.store(UnreadCountStore.self)
        let token = messages.observe { change in
            if change.newState.all.count == 1 { try? dispatcher.dispatch(.receiveMessage, payload: "Auto-reply") }
        }

        try dispatcher.dispatch(.receiveMessage, payload: "Hello")  // JavaScript's Flux would throw here

        #expect(messages.state.all.map(\.text) == ["Hello", "Auto-reply"])
        #expect(unread.count == 2)
        token.cancel()
    }

    @Test func theActionCreatorDispatchesEachFetchedMessage() async throws {
        let test = TestDispatcher()
        try test.register(MessageStore.self)
        try test.register(UnreadCountStore.self)

        try await test.dispatcher.fetchMessages(from: FixedMessages(texts: ["Hi", "Bye"])).value

        try await test.receive(.receiveMessage) {
            $0.modify(MessageStore.self) { $0.all = [Message(text: "Hi")] }
            $0.modify(UnreadCountStore.self) { $0.count = 1 }
        }
        try await test.receive(.receiveMessage) {
            $0.modify(MessageStore.self) { $0.all.append(Message(text: "Bye")) }
            $0.modify(UnreadCountStore.self) { $0.count = 2 }
        }
        await test.finish()
    }

    @Test func theArticleShowsThisCode() throws {
        try ArticleCode.expect(
            article: "MigratingFromFlux", holdsTheRegionsOf: ["FluxGuideModel.swift", "FluxGuideTests.swift"],
            named: ["actions", "messages", "unread", "use"])
    }
}

/// The article's badge: a view that shows the unread count.
private final class Badge: Sendable {
    let shown = Recorder<Int>()

    func show(_ count: Int) { shown.append(count) }
}
