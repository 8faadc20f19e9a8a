import Fluxion
import Testing

/// The inline-mutation example of the "Suspending and Batching" article, run as written there.
@Suite struct SuspendingAndBatchingArticleTests {
    @Test func aMutationThenAnActionCommitTogetherAndAreLogged() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(CounterStore.self)
        let lines = Recorder<String>()
        dispatcher.addMiddleware(LoggingMiddleware { lines.append($0) })

        try dispatcher.batch { batch in
            try batch.mutate(CounterStore.self) { $0.count = 10 }
            try batch.dispatch(.increment, payload: 1)  // count is 11 when the batch commits
        }

        #expect(try dispatcher.store(CounterStore.self).state.count == 11)
        #expect(lines.values.first == "▶ Fluxion.mutate(CounterStore)")
        #expect(lines.values.contains("    count: 0 → 11"))
    }
}
