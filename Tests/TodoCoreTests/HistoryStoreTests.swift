import Fluxion
import Testing
import TodoCore

@Suite struct HistoryStoreTests {
    @Test func undoRestoresEachEarlierList() throws {
        let test = try TestApp()
        try test.add("Buy milk", "Walk the dog")
        try test.app.dispatcher.dispatch(.completeTodo, payload: 1)
        try test.app.dispatcher.dispatch(.undo)
        #expect(test.app.todos.state.items.map(\.isDone) == [false, false])
        try test.app.dispatcher.dispatch(.undo)
        #expect(test.titles == ["Buy milk"])
        try test.app.dispatcher.dispatch(.undo)
        #expect(test.titles == [])
        #expect(throws: TodoError.nothingToUndo) { try test.app.dispatcher.dispatch(.undo) }
    }

    @Test func recordsNothingForARejectedOrIdleAction() throws {
        let test = try TestApp()
        try test.add("Buy milk")
        try test.app.dispatcher.dispatch(.completeTodo, payload: 1)
        let history = test.app.history.state
        #expect(throws: TodoError.noSuchItem(9)) { try test.app.dispatcher.dispatch(.completeTodo, payload: 9) }
        try test.app.dispatcher.dispatch(.completeTodo, payload: 1)  // done already: the list does not change
        #expect(test.app.history.state == history)
        #expect(history.past.count == 2)
    }

    @Test func keepsAtMostTheLimit() throws {
        let test = try TestApp()
        for number in 1...(History.limit + 5) { try test.add("Item \(number)") }
        #expect(test.app.history.state.past.count == History.limit)
        #expect(test.app.history.state.previous?.items.count == History.limit + 4)
    }

    @Test func survivesARestart() throws {
        let storage = InMemoryStateStorage()
        let first = try TestApp(storage: storage)
        try first.add("Buy milk", "Walk the dog")
        first.app.dispatcher.flush()
        let second = try TestApp(storage: storage)
        try second.app.dispatcher.dispatch(.undo)
        #expect(second.titles == ["Buy milk"])
    }

    @Test func undoesTheFirstChangeOfARunWithoutAHistoryArchive() throws {
        let storage = InMemoryStateStorage()
        let first = try TestApp(storage: storage)
        try first.add("Buy milk")
        first.app.dispatcher.flush()
        let second = try TestApp(storage: InMemoryStateStorage(["todos": storage.load(key: "todos")!]))
        try second.add("Walk the dog")
        try second.app.dispatcher.dispatch(.undo)
        #expect(second.titles == ["Buy milk"])
    }
}
