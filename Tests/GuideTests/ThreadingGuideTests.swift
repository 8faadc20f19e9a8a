import Fluxion
import Testing

/// An owner whose observer resets the counter past ten, with `send`: the observer's dispatch is queued.
final class CappedCounterScreen: Sendable {
    let dispatcher: Dispatcher

    init(dispatcher: Dispatcher) {
        self.dispatcher = dispatcher
    }

    func watch(_ store: CounterStore) {
        // article-observerSend-begin
        store.observe(owner: self) { owner, change in
            if change.newState.count > 10 { owner.dispatcher.send(.reset) }
        }
        // article-observerSend-end
    }
}

/// The code of "Threading and Re-entrancy", run.
@Suite struct ThreadingGuideTests {
    @Test func anObserverSendsAnActionThatRunsBeforeTheDispatchReturns() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(CounterStore.self)
        let store = try dispatcher.store(CounterStore.self)
        let screen = CappedCounterScreen(dispatcher: dispatcher)
        screen.watch(store)

        try dispatcher.dispatch(.increment, payload: 11)

        #expect(store.state.count == 0, "the observer's reset ran before dispatch returned")
        withExtendedLifetime(screen) {}
    }

    @Test func theArticleShowsThisCode() throws {
        try ArticleCode.expect(
            article: "ThreadingAndReentrancy", holdsTheRegionsOf: ["ThreadingGuideTests.swift"],
            named: ["observerSend"])
    }
}
