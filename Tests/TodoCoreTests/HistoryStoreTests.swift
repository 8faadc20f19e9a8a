import Fluxion
import FluxionTesting
import Testing
import TodoCore

@Suite(.timeLimit(.minutes(10))) struct HistoryStoreTests {
    @Test func undoRestoresEachEarlierList() async throws {
        let test = try TestApp()
        try test.add("Buy milk")
        let one = TodoList(items: [Todo(title: "Buy milk")])
        try test.test.dispatch(.completeTodo, payload: 1) {
            $0.modify(TodoStore.self) { $0.items[0].isDone = true }
            $0.modify(StatsStore.self) { $0.done = 1 }
            $0.modify(HistoryStore.self) { $0 = History(present: self.doneList, past: [TodoList(), one]) }
        }

        try test.test.dispatch(.undo) {
            $0.modify(TodoStore.self) { $0 = one }
            $0.modify(StatsStore.self) { $0.done = 0 }
            $0.modify(HistoryStore.self) { $0 = History(present: one, past: [TodoList()]) }
        }
        try test.test.dispatch(.undo) {
            $0.modify(TodoStore.self) { $0 = TodoList() }
            $0.modify(StatsStore.self) { $0 = Stats() }
            $0.modify(HistoryStore.self) { $0 = History() }
        }
        #expect(throws: TodoError.nothingToUndo) { try test.test.dispatch(.undo) }
        await test.test.finish()
    }

    private var doneList: TodoList { TodoList(items: [Todo(title: "Buy milk", isDone: true)]) }

    @Test func recordsNothingForARejectedOrIdleAction() async throws {
        let test = try TestApp()
        try test.add("Buy milk")
        try test.test.dispatch(.completeTodo, payload: 1) {
            $0.modify(TodoStore.self) { $0.items[0].isDone = true }
            $0.modify(StatsStore.self) { $0.done = 1 }
            $0.modify(HistoryStore.self) { $0.record(self.doneList) }
        }
        #expect(throws: TodoError.noSuchItem(9)) { try test.test.dispatch(.completeTodo, payload: 9) }
        try test.test.dispatch(.completeTodo, payload: 1)  // done already: no store changes
        #expect(test.app.history.state.past.count == 2)
        await test.test.finish()
    }

    @Test func keepsAtMostTheLimit() throws {
        let test = try TestApp()
        for number in 1...(History.limit + 5) { try test.add("Item \(number)") }
        #expect(test.app.history.state.past.count == History.limit)
        #expect(test.app.history.state.previous?.items.count == History.limit + 4)
    }

    @Test func survivesARestart() async throws {
        let storage = InMemoryStateStorage()
        let first = try TestApp(storage: storage)
        try first.add("Buy milk", "Walk the dog")
        await first.app.dispatcher.shutdown()  // NB: it saves, and releases the storage for the next app
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
