import Fluxion
import FluxionTesting
import Testing
import TodoCore

/// The list's handlers on a plain value, and on a dispatcher with the list alone.
@Suite(.timeLimit(.minutes(10))) struct TodoStoreTests {
    private let reducer = StoreReducer(TodoStore())

    @Test func addsTrimmedTitles() throws {
        var list = TodoList()
        try reducer.reduce(&list, .addTodo, payload: "  Buy milk ")
        try reducer.reduce(&list, .addTodo, payload: "Walk the dog")
        #expect(list.items == [Todo(title: "Buy milk"), Todo(title: "Walk the dog")])
    }

    @Test func completesAnItemByItsNumber() throws {
        var list = TodoList(items: [Todo(title: "Buy milk"), Todo(title: "Walk the dog")])
        try reducer.reduce(&list, .completeTodo, payload: 2)
        #expect(list.items.map(\.isDone) == [false, true])
        #expect(throws: TodoError.noSuchItem(3)) { try reducer.reduce(&list, .completeTodo, payload: 3) }
        #expect(throws: TodoError.noSuchItem(0)) { try reducer.reduce(&list, .completeTodo, payload: 0) }
        #expect(list.items.map(\.isDone) == [false, true])
    }

    @Test func clearsCompletedItems() async throws {
        let test = TestDispatcher()
        let list = TodoList(items: [Todo(title: "Buy milk"), Todo(title: "Walk the dog", isDone: true)])
        try test.register(TodoStore.self, initialState: list)

        try test.dispatch(.clearCompleted) { $0.modify(TodoStore.self) { $0.items.removeLast() } }
        await test.finish()
    }

    @Test func importFinishedAddsThePayloadOrThrowsTheCarriedError() async throws {
        let test = TestDispatcher()
        try test.register(TodoStore.self)

        try test.dispatch(.importFinished, payload: [Todo(title: " A "), Todo(title: "B", isDone: true)]) {
            $0.modify(TodoStore.self) { $0.items = [Todo(title: "A"), Todo(title: "B", isDone: true)] }
        }
        let failure = ImportError.unreadable(path: "/x.json", reason: "no such file")
        #expect(throws: failure) { try test.dispatch(.importFinished, payload: [], error: failure) }
        #expect(throws: TodoError.emptyTitle) {
            try test.dispatch(.importFinished, payload: [Todo(title: "C"), Todo(title: "")])
        }
        try test.dispatch(.addTodo, payload: "D") { $0.modify(TodoStore.self) { $0.items.append(Todo(title: "D")) } }
        await test.finish()
    }

    @Test func rejectsAnEmptyTitleAndChangesNoStore() async throws {
        let test = try TestApp()
        try test.add("Buy milk")
        #expect(throws: TodoError.emptyTitle) { try test.test.dispatch(.addTodo, payload: "   ") }
        try test.add("Walk the dog")  // checks every store from its state before the rejected action
        await test.test.finish()
    }
}
