import Testing
import TodoCore

@Suite struct TodoRendererTests {
    let list = TodoList(items: [Todo(title: "Buy milk"), Todo(title: "Walk the dog", isDone: true)])

    @Test func numbersEveryItemByItsPlace() {
        #expect(TodoRenderer.list(list, filter: .all) == "1. [ ] Buy milk\n2. [x] Walk the dog")
    }

    @Test func showsWhatTheFilterLetsThroughAndCountsTheRest() {
        #expect(TodoRenderer.list(list, filter: .completed) == "2. [x] Walk the dog\n(filter: completed; 1 hidden)")
        #expect(TodoRenderer.list(list, filter: .active) == "1. [ ] Buy milk\n(filter: active; 1 hidden)")
    }

    @Test func saysSoWhenNothingIsShown() {
        #expect(TodoRenderer.list(TodoList(), filter: .all) == "No todos.")
        #expect(TodoRenderer.list(TodoList(), filter: .active) == "No active todos.")
    }
}
