import Foundation
import Testing

@testable import Fluxion

/// Work for a tracked task, under an id: the payload of the actions that start it from a handler.
struct TaskWork: Sendable {
    var id: String
    var cancelInFlight = false
    var body: @Sendable (Dispatcher) async throws -> Void
}

extension ActionName where Payload == String {
    static var noteDown: Self { "cancellation.noteDown" }
}

extension ActionName where Payload == String? {
    /// Carries the outcome of some work, for `dispatch(_:result:)`.
    static var noteResult: Self { "cancellation.noteResult" }
}

extension ActionName where Payload == TaskWork {
    /// Asks for an effect that runs the payload, with `effects.run(id:cancelInFlight:)`.
    static var runAsEffect: Self { "cancellation.runAsEffect" }
    /// Starts the payload with `dispatchTask(id:cancelInFlight:)`, from the handler.
    static var runAsHandlerTask: Self { "cancellation.runAsHandlerTask" }
}

/// Notes down the strings it is sent; starts the work it is sent, changing nothing.
final class NotebookStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable()
            .on(.noteDown) { notes, action in notes.append(action.payload) }
            .on(.noteResult) { notes, action in notes.append(action.payload ?? "failure") }
            .on(.runAsEffect, with: .effects) { _, action, effects in
                let work = action.payload
                effects.run(id: work.id, cancelInFlight: work.cancelInFlight, work.body)
            }
            .route(.runAsHandlerTask, to: NotebookStore.startTask)
    }

    func startTask(_ notes: inout [String], _ action: Action<TaskWork>) {
        let work = action.payload
        dispatcher?.dispatchTask(id: work.id, cancelInFlight: work.cancelInFlight, work.body)
    }
}

/// How a tracked task is started.
enum TaskStart: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `dispatchTask(id:)`, from outside any action.
    case dispatchTask
    /// `effects.run(id:)`, from a handler.
    case effect
    /// `dispatchTask(id:)`, from a handler.
    case handlerTask

    var testDescription: String { rawValue }

    /// The name of the action that asked for the task; `nil` when none did.
    var askingAction: String? {
        switch self {
        case .dispatchTask: nil
        case .effect: ActionName<TaskWork>.runAsEffect.rawValue
        case .handlerTask: ActionName<TaskWork>.runAsHandlerTask.rawValue
        }
    }

    /// Starts `work` on `dispatcher`; the task is tracked when this returns.
    func start(_ work: TaskWork, on dispatcher: Dispatcher) throws {
        switch self {
        case .dispatchTask: dispatcher.dispatchTask(id: work.id, cancelInFlight: work.cancelInFlight, work.body)
        case .effect: try dispatcher.dispatch(.runAsEffect, payload: work)
        case .handlerTask: try dispatcher.dispatch(.runAsHandlerTask, payload: work)
        }
    }
}

/// The three ways of cancelling a tracked task through the dispatcher.
enum Cancelling: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A new task under the same id, started with `cancelInFlight`, the same way as the first.
    case cancelInFlight
    case cancelTasksByID
    case cancelAllTasks

    var testDescription: String { rawValue }

    /// Cancels the tasks running under `id`, which were started by `start`.
    func cancel(_ id: String, startedBy start: TaskStart, on dispatcher: Dispatcher) throws {
        switch self {
        case .cancelInFlight: try start.start(TaskWork(id: id, cancelInFlight: true) { _ in }, on: dispatcher)
        case .cancelTasksByID: dispatcher.cancelTasks(id: id)
        case .cancelAllTasks: dispatcher.cancelAllTasks()
        }
    }
}

/// A one-shot signal an async task can wait for; firing it is synchronous.
final class OneShotSignal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    func wait() async {
        for await _ in stream { return }
    }

    func fire() {
        continuation.yield()
        continuation.finish()
    }
}

/// A dispatcher with a ``NotebookStore``, the search service its tasks wait on, and the task errors it reports.
struct CancellationFixture {
    let dispatcher = Dispatcher()
    let service = SearchService()
    let errors = Recorder<TaskError>()
    let notebook: NotebookStore

    init() throws {
        let errors = errors
        dispatcher.onTaskError = { errors.append($0) }
        try dispatcher.register(NotebookStore.self)
        notebook = try dispatcher.store(NotebookStore.self)
    }
}
