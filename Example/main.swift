import Fluxion

// A small todo program: two stores, one waiting for the other, and observers
// that print what they see. Run it with `swift run fluxion-example`.

struct Todo: Sendable {
    var title: String
    var isDone = false
}

struct TodoList: Sendable {
    var items: [Todo] = []
}

struct Stats: Sendable {
    var total = 0
    var done = 0
}

enum TodoError: Error, CustomStringConvertible {
    case emptyTitle
    case noSuchItem(Int)

    var description: String {
        switch self {
        case .emptyTitle: "a todo needs a title"
        case .noSuchItem(let index): "there is no item \(index)"
        }
    }
}

extension ActionName where Payload == String {
    static var addTodo: Self { "addTodo" }
}

extension ActionName where Payload == Int {
    static var completeTodo: Self { "completeTodo" }
}

final class TodoStore: Store<TodoList>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    init() { super.init(initialState: TodoList()) }

    override class var handlers: HandlerTable<TodoList> {
        HandlerTable()
            .on(.addTodo) { list, action in
                guard !action.payload.isEmpty else { throw TodoError.emptyTitle }
                list.items.append(Todo(title: action.payload))
            }
            .on(.completeTodo, TodoStore.complete)
    }

    func complete(_ list: inout TodoList, _ action: Action<Int>) throws {
        guard list.items.indices.contains(action.payload) else { throw TodoError.noSuchItem(action.payload) }
        list.items[action.payload].isDone = true
    }
}

final class StatsStore: Store<Stats>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    init() { super.init(initialState: Stats()) }

    override class var handlers: HandlerTable<Stats> {
        HandlerTable()
            .on(.addTodo, StatsStore.recount)
            .on(.completeTodo, StatsStore.recount)
    }

    func recount<Payload>(_ stats: inout Stats, _ action: Action<Payload>) throws {
        let items = try waitFor(TodoStore.self).state.items
        stats.total = items.count
        stats.done = items.filter(\.isDone).count
    }
}

final class Console: Sendable {
    func show(_ list: TodoList) {
        for (index, item) in list.items.enumerated() {
            print("  \(index). [\(item.isDone ? "x" : " ")] \(item.title)")
        }
    }
}

let dispatcher = Dispatcher()
try dispatcher.register(StatsStore.self)  // registered first, yet waits for TodoStore
try dispatcher.register(TodoStore.self)

let console = Console()
try dispatcher.store(TodoStore.self).observe(owner: console) { console, change in
    print("todos after \(change.action.name):")
    console.show(change.newState)
}
let statsToken = try dispatcher.store(StatsStore.self).observe { change in
    if let error = change.error {
        print("stats unchanged: \(error)")
    } else {
        print("stats: \(change.newState.done) of \(change.newState.total) done")
    }
}

try dispatcher.dispatch(.addTodo, payload: "Buy milk")
try dispatcher.dispatch(.addTodo, payload: "Write the report")
try dispatcher.dispatch(.completeTodo, payload: 0)

do {
    try dispatcher.dispatch(.completeTodo, payload: 7)
} catch {
    print("rejected: \(error)")
}

statsToken.cancel()
