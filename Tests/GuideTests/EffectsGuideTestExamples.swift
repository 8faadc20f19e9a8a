import Fluxion
import FluxionTesting
import Foundation
import Testing

// "Working with Effects", "Test effects with a test clock": the article's tests, as it shows them.

// article-test-begin
@Test func aSearchRunsOnceTheTypingPauses() async throws {
    let test = TestDispatcher()
    let client = SearchClient { query in ["milk", "mild", "mint"].filter { $0.hasPrefix(query) } }
    try test.register(SearchStore.self) { SearchStore(client: client, clock: test.clock) }

    try test.dispatch(.search, payload: "mi") {
        $0.modify(SearchStore.self) { $0 = Search(query: "mi", isLoading: true) }
    }
    await test.clock.advance(by: .milliseconds(200))
    try test.dispatch(.search, payload: "mil") { $0.modify(SearchStore.self) { $0.query = "mil" } }
    await test.clock.advance(by: .milliseconds(300))  // "mi" was cancelled; "mil" has answered

    try await test.receive(.searchFinished, payload: ["milk", "mild"]) {
        $0.modify(SearchStore.self) { $0 = Search(query: "mil", results: ["milk", "mild"]) }
    }
    await test.finish()
}
// article-test-end

@Test(.timeLimit(.minutes(10))) func anUnreadableResponseIsATaskError() async throws {
    let test = TestDispatcher()
    try test.register(SearchStore.self) {
        SearchStore(client: SearchClient { _ in throw MalformedResponse() }, clock: test.clock)
    }

    try test.dispatch(.search, payload: "mil") {
        $0.modify(SearchStore.self) {
            $0.query = "mil"
            $0.isLoading = true
        }
    }
    await test.clock.advance(by: .milliseconds(300))

    // article-taskError-begin
    try await test.receiveTaskError(id: "search", kind: .threw) { error in
        #expect(error.error as? MalformedResponse == MalformedResponse())
    }
    // article-taskError-end
    await test.finish()
}
