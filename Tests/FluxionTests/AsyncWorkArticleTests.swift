import Fluxion
import Foundation
import Testing

// The async action creator of "Middleware and Async Work", run as written there: each
// `// article-NAME-begin` … `// article-NAME-end` region, dedented, appears in the article verbatim.

struct Todo: Equatable, Sendable {
    var title: String
}

struct TodoList: Equatable, Sendable {
    var items: [Todo] = []
    var loadError: String?
}

/// A server that answers with `todos`, or fails with `error`.
struct TodoAPI: Sendable {
    var todos: [Todo] = []
    var error: TestError?

    func fetchTodos() async throws -> [Todo] {
        if let error { throw error }
        return todos
    }
}

// article-action-begin
extension ActionName where Payload == [Todo]? {
    static var todosLoaded: Self { "todosLoaded" }
}
// article-action-end

final class TodoStore: Store<TodoList>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: TodoList()) }

    override class var handlers: HandlerTable<TodoList> {
        // article-handler-begin
        HandlerTable().on(.todosLoaded) { state, action in
            if let error = action.error { state.loadError = "\(error)" } else { state.items = action.payload ?? [] }
        }
        // article-handler-end
    }
}

/// Another store of `.todosLoaded`, whose handler refuses a todo without a title.
final class TitleCheckStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.todosLoaded) { count, action in
            if action.payload?.contains(where: \.title.isEmpty) == true { throw TestError("untitled") }
            count += 1
        }
    }
}

/// The article's task: the result of `api`'s request, dispatched once.
private func loadTodos(from api: TodoAPI, into dispatcher: Dispatcher) -> Task<Void, any Error> {
    // article-task-begin
    let task = dispatcher.dispatchTask { dispatcher in
        let result: Result<[Todo], any Error>
        do {
            result = .success(try await api.fetchTodos())
        } catch {
            result = .failure(error)  // the request's error, and nothing else
        }
        try dispatcher.dispatch(.todosLoaded, result: result)  // exactly once
    }
    // article-task-end
    return task
}

@Suite(.timeLimit(.minutes(10))) struct AsyncWorkArticleTests {
    /// A dispatcher with both stores, and the names of the actions that reach its middleware.
    private func makeDispatcher() throws -> (Dispatcher, Recorder<String>) {
        let dispatcher = Dispatcher()
        try dispatcher.register(TodoStore.self)
        try dispatcher.register(TitleCheckStore.self)
        let names = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                names.append(action.error == nil ? action.name : "\(action.name) failed")
                return try next(action)
            })
        return (dispatcher, names)
    }

    @Test func theTodosLoadedAreDispatchedOnce() async throws {
        let (dispatcher, names) = try makeDispatcher()

        try await loadTodos(from: TodoAPI(todos: [Todo(title: "Buy milk")]), into: dispatcher).value

        #expect(try dispatcher.store(TodoStore.self).state == TodoList(items: [Todo(title: "Buy milk")]))
        #expect(names.values == ["todosLoaded"])
    }

    @Test func aFailedRequestIsDispatchedOnceAsTheActionsError() async throws {
        let (dispatcher, names) = try makeDispatcher()

        try await loadTodos(from: TodoAPI(error: TestError("offline")), into: dispatcher).value

        #expect(try dispatcher.store(TodoStore.self).state.loadError == "TestError(offline)")
        #expect(names.values == ["todosLoaded failed"])
    }

    @Test func aHandlersErrorEndsTheTaskAndIsNotDispatchedAsASecondAction() async throws {
        let (dispatcher, names) = try makeDispatcher()

        let task = loadTodos(from: TodoAPI(todos: [Todo(title: "")]), into: dispatcher)

        await #expect(throws: TestError("untitled")) { try await task.value }
        #expect(names.values == ["todosLoaded"])
        #expect(try dispatcher.store(TodoStore.self).state == TodoList(), "the action rolled back, nothing else came")
        #expect(try dispatcher.store(TitleCheckStore.self).state == 0)
    }

    @Test func theArticleShowsThisCodeVerbatim() throws {
        let file = URL(fileURLWithPath: #filePath)
        let article = try String(
            contentsOf: file.deletingLastPathComponent()
                .appendingPathComponent("../../Sources/Fluxion/Fluxion.docc/MiddlewareAndAsyncWork.md"),
            encoding: .utf8)
        let source = try String(contentsOf: file, encoding: .utf8)
        var found: [String] = []
        for region in source.components(separatedBy: "// article-").dropFirst() where region.contains("-begin\n") {
            let snippet = try #require(region.components(separatedBy: "-begin\n").last)
            let indent = String(snippet.prefix { $0 == " " })
            let code = snippet.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .map { $0.hasPrefix(indent) ? $0.dropFirst(indent.count) : $0 }.joined(separator: "\n")
            let name = String(region.prefix { $0 != "-" })
            #expect(article.contains(code), "article-\(name)")
            found.append(name)
        }
        #expect(found == ["action", "handler", "task"])
    }
}
