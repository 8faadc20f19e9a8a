/// Everything a dispatcher shares between threads, kept as one value inside its lock.
struct DispatcherState {
    /// Which store types handle which names, and which stores exist.
    var index = RouteIndex()
    /// Who holds the dispatch turn, and what waits for it.
    var turn: TurnState
    /// The middleware chain, outermost first.
    var middleware = MiddlewareChain()
    /// The asynchronous work started with `dispatchTask`.
    var tasks = TaskRegistry()
    /// What starts the tracked tasks; `nil` starts them with `Task(priority:operation:)`.
    var taskStarter: (any TaskStarter)?
    /// Told after each tracked task ends; a test clock waits on them.
    var taskEndObservers: [@Sendable () -> Void] = []
    /// Told what happens to each effect; journals record it.
    var taskEventObservers: [Int: @Sendable (TaskEvent) -> Void] = [:]
    var nextTaskEventKey = 0
    /// How many replays pause tasks: while any does, no tracked task starts, effect or not.
    var effectPauses = 0
    /// What replays left out so far: the actions steps queued, and the tasks asked for outside any step.
    var replayOmissions = ReplayOmissions()
    /// Whether every store forwards its changes to the whole-dispatcher observers: set for
    /// good by the first of them.
    var forwardsChanges = false
    /// How many actions no store handled.
    var deadLetters = 0
    var deadLetterHandler: (@Sendable (AnyAction) -> Void)?
    var queuedErrorHandler: (@Sendable (AnyAction, any Error) -> Void)?
    var taskErrorHandler: (@Sendable (TaskError) -> Void)?

    /// Whether `thread` may act for the turn holder: it holds the turn, or runs a factory the holder waits for.
    func admits(_ thread: ThreadID) -> Bool {
        turn.admits(thread, isCreatingForHolder: isCreatingForHolder(thread))
    }

    /// Why an action or a batch from the code running now is refused, if it is: it belongs to a task of this
    /// dispatcher that was cancelled, or the dispatcher shuts down.
    @inline(__always)
    func refusal(ofCallerOf dispatcher: ObjectIdentifier) -> Admission.RefusedCaller {
        // NB: set by the first cancellation, shutdown's too: until then, no arrival checks more.
        guard tasks.hasCancelled else { return .no }
        if isInCancelledTask(of: dispatcher) { return .cancelledTask }
        return tasks.isClosed ? .shutDown : .no
    }

    /// Whether the code running now belongs to a task of this dispatcher that was cancelled.
    func isInCancelledTask(of dispatcher: ObjectIdentifier) -> Bool {
        guard tasks.hasCancelled, let task = TrackedTask.currentIfAny, task.dispatcher == dispatcher else {
            return false
        }
        return task.isCancelled
    }

    /// Marks as cancelled the tasks under `id` (every task for `nil`) whose dispatches still wait — held while a
    /// journal shows the past, waiting for a release, or queued — even those that ended.
    mutating func reachTasksOfWaitingDispatches(by id: TaskKey?) {
        var waiting: [TrackedTask] = []
        turn.visitTasksOfWaitingDispatches { waiting.append($0) }
        for task in waiting { tasks.reachEnded(task, by: id) }
    }

    /// Whether `thread` runs a store factory while the turn holder waits for a store.
    func isCreatingForHolder(_ thread: ThreadID) -> Bool {
        turn.holderAwaitsCreation && index.isCreating(thread)
    }
}
