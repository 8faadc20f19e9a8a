import Fluxion
import FluxionTesting
import Testing

// The code of "Getting Started", run as written there: the counter the other guides build on too.

// article-state-begin
struct Counter: DefaultInitializable, Equatable, Sendable {
    var count = 0
}
// article-state-end

// article-actions-begin
extension ActionName where Payload == Int {
    static var increment: Self { "increment" }
    static var decrement: Self { "decrement" }
}

extension ActionName where Payload == Void {
    static var reset: Self { "reset" }
}
// article-actions-end

// article-store-begin
enum CounterError: Error {
    case belowZero
}

final class CounterStore: Store<Counter>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    override class var handlers: Handlers {
        HandlerTable()
            .on(.increment) { state, action in state.count += action.payload }
            .on(.decrement) { state, action in
                guard state.count >= action.payload else { throw CounterError.belowZero }
                state.count -= action.payload
            }
            .on(.reset) { state, _ in state = Counter() }
    }
}
// article-store-end

// article-label-begin
final class CounterLabel: Sendable {
    func show(_ count: Int) { print("count:", count) }
}
// article-label-end

@Suite(.timeLimit(.minutes(10))) struct GettingStartedTests {
    /// The article's steps, in its order: each snippet starts where the one before left the counter.
    @Test func theCounterCountsRefusesAndIsObserved() throws {
        // article-dispatch-begin
        let dispatcher = Dispatcher()
        try dispatcher.register(CounterStore.self)

        try dispatcher.dispatch(.increment, payload: 3)
        try dispatcher.dispatch(.decrement, payload: 1)

        let counter = try dispatcher.store(CounterStore.self)
        print(counter.state.count)  // 2
        // article-dispatch-end
        #expect(counter.state.count == 2)

        // article-refuse-begin
        do {
            try dispatcher.dispatch(.decrement, payload: 5)
        } catch CounterError.belowZero {
            print(counter.state.count)  // still 2: a refused action changes nothing
        }
        // article-refuse-end
        #expect(counter.state.count == 2)

        let heard = Recorder<Int>()
        let witness = counter.observe { change in heard.append(change.newState.count) }
        // article-observe-begin
        let label = CounterLabel()
        counter.observe(owner: label) { label, change in
            label.show(change.newState.count)
        }

        try dispatcher.dispatch(.increment, payload: 1)  // prints "count: 3"
        try dispatcher.dispatch(.reset)  // prints "count: 0"
        // article-observe-end
        #expect(heard.values == [3, 0])

        // article-token-begin
        let token = counter.observe { change in
            print(change.action.name, change.oldState.count, "→", change.newState.count)
        }
        try dispatcher.dispatch(.increment, payload: 2)  // prints "increment 0 → 2" (and "count: 2")
        token.cancel()  // or let the token go
        // article-token-end
        #expect(heard.values == [3, 0, 2])
        #expect(token.isCancelled)
        #expect(counter.count == 2)
        witness.cancel()
        withExtendedLifetime(label) {}
    }

    @Test func theArticleIsAtMost200LinesAndEndsWithATest() throws {
        let article = try ArticleCode.article("GettingStarted")
        #expect(article.split(separator: "\n", omittingEmptySubsequences: false).count <= 200)
        let sections = article.components(separatedBy: "\n### ")
        #expect(sections.last?.hasPrefix("Test it\n") == true)
    }

    @Test func theArticleShowsThisCode() throws {
        try ArticleCode.expect(
            article: "GettingStarted", holdsTheRegionsOf: ["GettingStartedTests.swift"],
            named: ["state", "actions", "store", "label", "dispatch", "refuse", "observe", "token", "test"])
    }
}

// article-test-begin
@Test func countingUpAndDown() async throws {
    let test = TestDispatcher()
    try test.register(CounterStore.self)

    try test.dispatch(.increment, payload: 3) {
        $0.modify(CounterStore.self) { $0.count = 3 }
    }
    try test.dispatch(.decrement, payload: 1) {
        $0.modify(CounterStore.self) { $0.count = 2 }
    }
    #expect(throws: CounterError.belowZero) {
        try test.dispatch(.decrement, payload: 5)  // refused: no store changes
    }
    await test.finish()
}
// article-test-end
