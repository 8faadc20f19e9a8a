import Fluxion
import FluxionTesting
import Foundation
import Testing
import TodoCore

/// A session recorded with `todo --record` — three todos added, one done, the completed cleared and the
/// clearing undone, another done — replayed through today's handlers: a handler that changes what a
/// step makes fails this test at that step, with its field diff.
@Suite struct SessionReplayTests {
    @Test func aRecordedSessionReplaysAsRecorded() throws {
        let session = try #require(
            Bundle.module.url(forResource: "three-todos", withExtension: "jsonl", subdirectory: "Sessions"))

        let app = try TodoApp(storage: InMemoryStateStorage(), key: "todos")
        let report = try TestDispatcher.replay(contentsOf: session, into: app.dispatcher)

        #expect(report.replayed == 9)
        #expect(app.todos.state.items.map(\.title) == ["Buy milk", "Write the report", "Call the plumber"])
    }

    /// Recording, Replaying and Time Travel's refusal, as it prints.
    @Test func aRefusedCompletionIsRecordedAsTheArticlePrintsIt() throws {
        let app = try TodoApp(storage: InMemoryStateStorage(), key: "todos")
        let journal = try Journal(recording: app.dispatcher)
        try app.dispatcher.dispatch(.addTodo, payload: "Buy milk")
        #expect(throws: TodoError.noSuchItem(9)) { try app.dispatcher.dispatch(.completeTodo, payload: 9) }

        #expect(journal.refusals.map(\.description) == ["✗ completeTodo(9) ! there is no item 9 (thrown) after #1"])
        let replay = try TodoApp(storage: InMemoryStateStorage(), key: "todos")
        #expect(try journal.replay(into: replay.dispatcher).refusalsReplayed == 1)
    }
}
