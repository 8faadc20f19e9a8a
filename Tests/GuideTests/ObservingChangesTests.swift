import Fluxion
import Testing

/// The code of "Observing Changes", run.
@Suite(.timeLimit(.minutes(10))) struct ObservingChangesTests {
    private func makeInbox() throws -> Dispatcher {
        let dispatcher = Dispatcher()
        try dispatcher.register(MessageStore.self)
        try dispatcher.register(UnreadCountStore.self)
        return dispatcher
    }

    @Test func aTrackerOutsideSwiftUIHearsEveryChangeOnceItTracksAgain() throws {
        let dispatcher = try makeInbox()
        let shown = Recorder<Int>()
        let badge = UnreadBadge(store: try dispatcher.store(UnreadCountStore.self)) { shown.append($0) }

        badge.startShowing()
        try dispatcher.dispatch(.receiveMessage, payload: "hello")
        try dispatcher.dispatch(.receiveMessage, payload: "again")
        try dispatcher.dispatch(.markAllRead)

        #expect(shown.values == [0, 1, 2, 0])
    }

    @Test func aCommandLineToolsTokenObserverHearsWhileItIsKept() throws {
        let dispatcher = try makeInbox()
        try printUnreadCounts(of: dispatcher) {
            try dispatcher.dispatch(.receiveMessage, payload: "hello")
        }
        try dispatcher.dispatch(.receiveMessage, payload: "again")  // after the token's cancel: not printed
        #expect(try dispatcher.store(UnreadCountStore.self).state.count == 2)
    }

    @Test func theArticleShowsThisCode() throws {
        try ArticleCode.expect(
            article: "ObservingChanges",
            holdsTheRegionsOf: ["ObservingChangesModel.swift"],
            named: ["tracking", "commandLine"])
    }
}
