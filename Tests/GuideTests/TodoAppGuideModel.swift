// The code of "Building the Todo App", a shorter version of the app in Example/TodoCore.
// TodoAppGuideTests.swift runs it.

// article-model-begin
import Fluxion
import Foundation

struct Todo: Codable, Equatable, Sendable {
    var title: String
    var isDone = false
}

struct TodoList: Codable, Equatable, Sendable {
    var items: [Todo] = []

    mutating func add(_ title: String) throws {
        guard !title.isEmpty else { throw TodoError.emptyTitle }
        items.append(Todo(title: title))
    }

    mutating func complete(_ number: Int) throws {
        guard items.indices.contains(number - 1) else { throw TodoError.noSuchItem(number) }
        items[number - 1].isDone = true
    }
}
// article-model-end

enum TodoError: Error, Equatable {
    case emptyTitle
    case noSuchItem(Int)
    case nothingToUndo
}

enum VisibilityFilter: String, Codable, Sendable {
    case all, active, completed

    func shows(_ todo: Todo) -> Bool {
        switch self {
        case .all: true
        case .active: !todo.isDone
        case .completed: todo.isDone
        }
    }
}

// article-actions-begin
extension ActionName where Payload == String {
    static var addTodo: Self { "addTodo" }
}

extension ActionName where Payload == Int {
    static var completeTodo: Self { "completeTodo" }
}

extension ActionName where Payload == Void {
    static var clearCompleted: Self { "clearCompleted" }
    static var undo: Self { "undo" }
}

extension ActionName where Payload == VisibilityFilter {
    static var setFilter: Self { "setFilter" }
}
// article-actions-end

// article-stores-begin
final class TodoStore: Store<TodoList>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: TodoList()) }

    override class var handlers: Handlers {
        HandlerTable()
            .on(.addTodo) { list, action in try list.add(action.payload) }
            .on(.completeTodo) { list, action in try list.complete(action.payload) }
            .on(.clearCompleted) { list, _ in list.items.removeAll(where: \.isDone) }
            .route(.undo, to: TodoStore.undo)  // shown below
            .route(.importTodos, to: TodoStore.startImport)  // shown below
            .route(.importFinished, to: TodoStore.finishImport)
    }
}

final class FilterStore: Store<VisibilityFilter>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: .all) }

    override class var handlers: Handlers {
        HandlerTable().on(.setFilter) { filter, action in filter = action.payload }
    }
}
// article-stores-end

// article-listView-begin
final class ListView: Sendable {
    let todos: TodoStore
    let filter: FilterStore

    init(todos: TodoStore, filter: FilterStore) {
        self.todos = todos
        self.filter = filter
        todos.observe(owner: self) { view, _ in view.render() }
        filter.observe(owner: self) { view, _ in view.render() }
    }

    func render() {
        for (index, todo) in todos.state.items.enumerated() where filter.state.shows(todo) {
            print("\(index + 1). [\(todo.isDone ? "x" : " ")] \(todo.title)")
        }
    }
}
// article-listView-end

// article-stats-begin
struct Stats: Equatable, Sendable {
    var total = 0
    var done = 0

    init(counting items: [Todo]) {
        total = items.count
        done = items.count(where: \.isDone)
    }
}

final class StatsStore: Store<Stats>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Stats(counting: [])) }
}
// article-stats-end

// article-history-begin
struct History: Codable, Equatable, Sendable {
    private(set) var past: [TodoList] = []
    private(set) var present: TodoList

    init(present: TodoList) { self.present = present }

    var previous: TodoList? { past.last }

    mutating func record(_ list: TodoList) {
        guard list != present else { return }
        past.append(present)
        if past.count > 20 { past.removeFirst() }
        present = list
    }

    mutating func stepBack(to list: TodoList) {
        past.removeLast()
        present = list
    }
}

final class HistoryStore: Store<History>, @unchecked Sendable {  // locked by Store
    init(tracking list: TodoList) { super.init(initialState: History(present: list)) }

    override class var handlers: Handlers {
        HandlerTable()
            .route(.addTodo, to: HistoryStore.record)
            .route(.completeTodo, to: HistoryStore.record)
            .route(.clearCompleted, to: HistoryStore.record)
            .route(.importFinished, to: HistoryStore.record)
            .route(.undo, to: HistoryStore.stepBack)
    }

    func record<Payload>(_ history: inout History, _ action: Action<Payload>) throws {
        history.record(try waitFor(TodoStore.self).state)
    }

    func stepBack(_ history: inout History, _ action: Action<Void>) throws {
        history.stepBack(to: try waitFor(TodoStore.self).state)
    }
}
// article-history-end

// article-undo-begin
extension TodoStore {
    func undo(_ list: inout TodoList, _ action: Action<Void>) throws {
        guard let history = try dispatcher?.store(HistoryStore.self), let previous = history.state.previous else {
            throw TodoError.nothingToUndo
        }
        list = previous
    }
}
// article-undo-end

extension ActionName where Payload == String {
    static var importTodos: Self { "importTodos" }
}

extension ActionName where Payload == [Todo] {
    static var importFinished: Self { "importFinished" }
}

// article-importEffect-begin
extension TodoStore {
    func startImport(_ list: inout TodoList, _ action: Action<String>, _ effects: Effects) {
        let url = URL(fileURLWithPath: action.payload)
        effects.run(id: "import") { dispatcher in
            try await importTodos(from: url, into: dispatcher)
        }
    }
}
// article-importEffect-end

// article-importHandler-begin
extension TodoStore {
    func finishImport(_ list: inout TodoList, _ action: Action<[Todo]>) throws {
        if let error = action.error { throw error }
        list.items += action.payload
    }
}
// article-importHandler-end
