import Fluxion
import FluxionTesting
import Testing
import TodoCore

@Suite(.timeLimit(.minutes(10))) struct StatsStoreTests {
    @Test func countsAfterEachChangeOfTheList() async throws {
        let test = TestDispatcher()
        try test.register(TodoStore.self)
        try test.dispatcher.register(StatsStore.self, computedFrom: TodoStore.self) { Stats(counting: $0.items) }
        try test.track(StatsStore.self)

        try test.dispatch(.addTodo, payload: "Buy milk") {
            $0.modify(TodoStore.self) { $0.items = [Todo(title: "Buy milk")] }
            $0.modify(StatsStore.self) { $0.total = 1 }
        }
        try test.dispatch(.completeTodo, payload: 1) {
            $0.modify(TodoStore.self) { $0.items[0].isDone = true }
            $0.modify(StatsStore.self) { $0.done = 1 }
        }
        #expect(try test.dispatcher.store(StatsStore.self).state.description == "1 item, 1 done, 0 left")
        try test.dispatch(.clearCompleted) {
            $0.modify(TodoStore.self) { $0.items = [] }
            $0.modify(StatsStore.self) { $0 = Stats() }
        }
        await test.finish()
    }

    @Test func followsUndo() async throws {
        let test = try TestApp()
        try test.add("Buy milk", "Walk the dog")

        try test.test.dispatch(.undo) {
            $0.modify(TodoStore.self) { $0.items.removeLast() }
            $0.modify(StatsStore.self) { $0.total = 1 }
            $0.modify(HistoryStore.self) { $0.stepBack(to: TodoList(items: [Todo(title: "Buy milk")])) }
        }
        await test.test.finish()
    }

    @Test func startsFromTheRestoredList() async throws {
        let storage = InMemoryStateStorage()
        let first = try TestApp(storage: storage)
        try first.add("Buy milk")
        await first.app.dispatcher.shutdown()  // NB: it saves, and releases the storage for the next app
        let second = try TestApp(storage: storage)
        #expect(second.app.stats.state.total == 1)
    }

    @Test func describesCountsInWords() {
        #expect(Stats(counting: [Todo(title: "a")]).description == "1 item, 0 done, 1 left")
        #expect(
            Stats(counting: [Todo(title: "a", isDone: true), Todo(title: "b")]).description == "2 items, 1 done, 1 left"
        )
    }
}
