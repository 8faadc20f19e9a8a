import Fluxion
import Testing
import TodoCore

@Suite struct TodoStoreTests {
    @Test func addsTrimmedTitles() throws {
        let test = try TestApp()
        try test.add("  Buy milk ", "Walk the dog")
        #expect(test.titles == ["Buy milk", "Walk the dog"])
    }

    @Test func rejectsAnEmptyTitleAndChangesNoStore() throws {
        let test = try TestApp()
        try test.add("Buy milk")
        let history = test.app.history.state
        #expect(throws: TodoError.emptyTitle) { try test.add("   ") }
        #expect(test.titles == ["Buy milk"])
        #expect(test.app.stats.state.total == 1)
        #expect(test.app.history.state == history)
    }

    @Test func completesAnItemByItsNumber() throws {
        let test = try TestApp()
        try test.add("Buy milk", "Walk the dog")
        try test.app.dispatcher.dispatch(.completeTodo, payload: 2)
        #expect(test.app.todos.state.items.map(\.isDone) == [false, true])
        #expect(throws: TodoError.noSuchItem(3)) { try test.app.dispatcher.dispatch(.completeTodo, payload: 3) }
        #expect(throws: TodoError.noSuchItem(0)) { try test.app.dispatcher.dispatch(.completeTodo, payload: 0) }
    }

    @Test func clearsCompletedItems() throws {
        let test = try TestApp()
        try test.add("Buy milk", "Walk the dog", "Call mom")
        try test.app.dispatcher.dispatch(.completeTodo, payload: 2)
        try test.app.dispatcher.dispatch(.clearCompleted)
        #expect(test.titles == ["Buy milk", "Call mom"])
    }

    @Test func importFinishedAddsThePayloadOrThrowsTheCarriedError() throws {
        let test = try TestApp()
        try test.app.dispatcher.dispatch(.importFinished, payload: [Todo(title: "A"), Todo(title: "B", isDone: true)])
        #expect(test.titles == ["A", "B"])
        let failure = ImportError.unreadable(path: "/x.json", reason: "no such file")
        #expect(throws: failure) { try test.app.dispatcher.dispatch(.importFinished, payload: [], error: failure) }
        #expect(throws: TodoError.emptyTitle) {
            try test.app.dispatcher.dispatch(.importFinished, payload: [Todo(title: "C"), Todo(title: "")])
        }
        #expect(test.titles == ["A", "B"])
    }
}
