import Fluxion
import Testing

@testable import TodoCore

@Suite struct ChangeLoggerTests {
    @Test func logsTheActionAndADiffPerChangedStore() throws {
        let test = try TestApp()
        try test.add("Buy milk")
        let lines = Recorded<String>()
        let logger = ChangeLogger(write: { lines.append($0) })
        logger.log(test.app.dispatcher)
        try test.app.dispatcher.dispatch(.completeTodo, payload: 1)
        #expect(
            lines.values == [
                "completeTodo(1) → TodoStore\n  items[0].isDone: false → true",
                "completeTodo(1) → StatsStore\n  done: 0 → 1",
                "completeTodo(1) → HistoryStore\n  past[1]: + [[ ] Buy milk]\n  present.items[0].isDone: false → true",
            ])
        withExtendedLifetime(logger) {}
    }

    @Test func logsARejectedAction() throws {
        let test = try TestApp()
        let lines = Recorded<String>()
        let logger = ChangeLogger(write: { lines.append($0) })
        logger.log(test.app.dispatcher)
        #expect(throws: TodoError.nothingToUndo) { try test.app.dispatcher.dispatch(.undo) }
        #expect(lines.values.first == "undo → TodoStore\n  rejected: there is nothing to undo")
        withExtendedLifetime(logger) {}
    }

    @Test func diffsAddedAndRemovedElementsAndLeaves() {
        let old = TodoList(items: [Todo(title: "a"), Todo(title: "b")])
        let new = TodoList(items: [Todo(title: "A")])
        #expect(StateDiff.lines(from: old, to: new) == [#"items[0].title: "a" → "A""#, "items[1]: - [ ] b"])
        #expect(StateDiff.lines(from: VisibilityFilter.all, to: VisibilityFilter.active) == ["all → active"])
        #expect(StateDiff.lines(from: old, to: old) == [])
    }
}
