import Testing

@testable import Fluxion

/// What a tracked task tries once it is cancelled, each a way of changing the stores or starting work.
enum CancelledTaskPath: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case dispatch
    case dispatchResult
    case batchWithMutate
    case thunk
    case startTask

    var testDescription: String { rawValue }

    /// The action the refusal names: what the path dispatched; `nil` for starting a task, which dispatches none.
    var refusedAction: String? {
        switch self {
        case .dispatch, .thunk: ActionName<String>.noteDown.rawValue
        case .dispatchResult: ActionName<String?>.noteResult.rawValue
        case .batchWithMutate: AnyAction.batchName
        case .startTask: nil
        }
    }

    /// Tries to change the notebook by this path.
    func attempt(on dispatcher: Dispatcher) async throws {
        switch self {
        case .dispatch:
            try dispatcher.dispatch(.noteDown, payload: "late")
        case .dispatchResult:
            try dispatcher.dispatch(.noteResult, result: .success("late"))
        case .batchWithMutate:
            try dispatcher.batch { batch in try batch.mutate(NotebookStore.self) { $0.append("late") } }
        case .thunk:
            try dispatcher.perform { dispatcher in try dispatcher.dispatch(.noteDown, payload: "late") }
        case .startTask:
            // NB: the new task's work would note down; a refusal of its dispatch would be a second error.
            let task = dispatcher.dispatchTask(id: "started") { dispatcher in
                try dispatcher.dispatch(.noteDown, payload: "the new task's work ran")
            }
            try await task.value
        }
    }
}

/// A way of starting a tracked task, and a way of cancelling it through the dispatcher.
struct CancelledTask: Sendable, CustomTestStringConvertible {
    var start: TaskStart
    var cancelling: Cancelling

    static let all = TaskStart.allCases.flatMap { start in
        Cancelling.allCases.map { CancelledTask(start: start, cancelling: $0) }
    }

    var testDescription: String { "\(start), \(cancelling)" }
}

/// How a task starts another from its own code.
enum ChildStart: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case directly
    case inAThunk
    case inABatch

    var testDescription: String { rawValue }

    func start(
        on dispatcher: Dispatcher, _ work: @escaping @Sendable (Dispatcher) async throws -> Void
    ) throws -> Task<Void, any Error> {
        switch self {
        case .directly:
            dispatcher.dispatchTask(id: "child", work)
        case .inAThunk:
            dispatcher.perform { dispatcher in dispatcher.dispatchTask(id: "child", work) }
        case .inABatch:
            try dispatcher.batch { _ in dispatcher.dispatchTask(id: "child", work) }
        }
    }
}

/// Issue 21.2: a task cancelled through the dispatcher changes nothing afterwards, by any path.
@Suite(.timeLimit(.minutes(10))) struct DispatcherCancellationTests {
    @Test(arguments: CancelledTaskPath.allCases, CancelledTask.all)
    func aCancelledTaskChangesNothingByAnyPath(path: CancelledTaskPath, task: CancelledTask) async throws {
        let fixture = try CancellationFixture()
        let (dispatcher, service) = (fixture.dispatcher, fixture.service)
        let thrown = LockedBox<(any Error)?>(nil)
        let attempted = LockedBox(false)
        try task.start.start(
            TaskWork(id: "job") { dispatcher in
                _ = await service.results(for: "late")  // NB: not cancellable: it returns after the cancel
                attempted.value = true
                do { try await path.attempt(on: dispatcher) } catch { thrown.value = error }
            }, on: dispatcher)

        try task.cancelling.cancel("job", startedBy: task.start, on: dispatcher)
        await service.respond(to: "late", with: [])
        await dispatcher.waitUntilDrained()

        #expect(attempted.value)
        #expect(fixture.notebook.state == [])
        #expect(thrown.value is CancellationError)
        let errors = fixture.errors.values
        #expect(errors.count == 1)
        let error = try #require(errors.first)
        #expect(error.kind == .refused)
        #expect(error.hasTaskID("job"))
        #expect(error.action == path.refusedAction)
        #expect(error.error is CancellationError)
    }

    /// A batch's closure is the task's own code too; a `dispatchTask` there starts when the batch commits.
    @Test(arguments: ChildStart.allCases, CancelledTask.all)
    func cancellingATaskCancelsTheTasksItStarted(childStart: ChildStart, parent: CancelledTask) async throws {
        let fixture = try CancellationFixture()
        let (dispatcher, service) = (fixture.dispatcher, fixture.service)
        let child = LockedBox<Task<Void, any Error>?>(nil)
        let childStarted = OneShotSignal()
        try parent.start.start(
            TaskWork(id: "parent") { dispatcher in
                child.value = try? childStart.start(on: dispatcher) { dispatcher in  // NB: nil fails the #require
                    _ = await service.results(for: "child")
                    try dispatcher.dispatch(.noteDown, payload: "child")
                }
                childStarted.fire()
                _ = await service.results(for: "parent")
            }, on: dispatcher)
        await childStarted.wait()

        try parent.cancelling.cancel("parent", startedBy: parent.start, on: dispatcher)
        await service.respond(to: "child", with: [])
        await #expect(throws: CancellationError.self) { try await #require(child.value).value }
        await service.respond(to: "parent", with: [])
        await dispatcher.waitUntilDrained()

        #expect(fixture.notebook.state == [])
        let error = try #require(fixture.errors.values.first)
        #expect(fixture.errors.count == 1)
        #expect(error.kind == .refused)
        #expect(error.hasTaskID("child"))
        #expect(error.action == ActionName<String>.noteDown.rawValue)
    }

    @Test func aCancelledTaskThatStartsATaskGetsOneThatThrowsAndNeverRunsItsWork() async throws {
        let fixture = try CancellationFixture()
        let (dispatcher, service) = (fixture.dispatcher, fixture.service)
        let ran = LockedBox(false)
        let parent = dispatcher.dispatchTask(id: "parent") { dispatcher in
            _ = await service.results(for: "parent")
            let started = dispatcher.dispatchTask { _ in ran.value = true }
            try await started.value
        }

        dispatcher.cancelAllTasks()
        await service.respond(to: "parent", with: [])

        await #expect(throws: CancellationError.self) { try await parent.value }
        await dispatcher.waitUntilDrained()
        #expect(!ran.value)
        #expect(dispatcher.runningTaskCount == 0)
        let error = try #require(fixture.errors.values.first)
        #expect(error.kind == .refused)
        #expect(error.hasTaskID("parent"))
    }

    /// Searching as you type: each keystroke's effect replaces the search in flight.
    @Test func aNewSearchCancelsTheOneInFlightWhoseLateResponseChangesNothing() async throws {
        let service = SearchService()
        let (dispatcher, search, errors) = try makeSearchDispatcher(service: service)
        let found = Recorder<[String]>()
        let token = search.observe { change in
            if let results = change.action.payload as? [String] { found.append(results) }
        }
        defer { token.cancel() }
        try dispatcher.dispatch(.findProducts, payload: "mil")

        try dispatcher.dispatch(.findProducts, payload: "milk")
        await service.respond(to: "milk", with: ["milk"])
        await service.respond(to: "mil", with: ["mildew"])
        await dispatcher.waitUntilDrained()

        #expect(search.state == Catalog(query: "milk", results: ["milk"], isLoading: false))
        #expect(found.values == [["milk"]])
        let error = try #require(errors.values.first)
        #expect(errors.count == 1)
        #expect(error.kind == .refused)
        #expect(error.hasTaskID("search"))
        #expect(error.action == ActionName<[String]>.productsFound.rawValue)
    }
}
