import Fluxion
import Testing
import TodoCore

@Suite struct StatsStoreTests {
    @Test func countsAfterEachChangeOfTheList() throws {
        let test = try TestApp()
        try test.add("Buy milk", "Walk the dog")
        try test.app.dispatcher.dispatch(.completeTodo, payload: 1)
        #expect(test.app.stats.state == Stats(counting: [Todo(title: "a", isDone: true), Todo(title: "b")]))
        #expect(test.app.stats.state.description == "2 items, 1 done, 1 left")
        try test.app.dispatcher.dispatch(.undo)
        #expect(test.app.stats.state.done == 0)
    }

    @Test func startsFromTheRestoredList() throws {
        let storage = InMemoryStateStorage()
        let first = try TestApp(storage: storage)
        try first.add("Buy milk")
        first.app.dispatcher.flush()
        let second = try TestApp(storage: storage)
        #expect(second.app.stats.state.total == 1)
    }

    @Test func describesOneItemInTheSingular() {
        #expect(Stats(counting: [Todo(title: "a")]).description == "1 item, 0 done, 1 left")
    }
}
