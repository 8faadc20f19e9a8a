/// The combinations that still have an open defect, one switch each: while a switch is on, the
/// generator writes no program with its combination, and the shrinker keeps none. Each has a
/// known-issue test (`KnownIssueTests.swift`) holding the shrunk program that found it; the fix of a
/// defect removes its switch here, and its test's `withKnownIssue`.
struct OpenDefects: OptionSet, Sendable {
    let rawValue: Int

    /// An `Effects` kept past its handler call is accepted by a later handler of the same step.
    static let effectsKeptPastTheirCall = OpenDefects(rawValue: 1 << 1)
    /// A time-travel move inside a batch's closure moves the stores (the batch then fails).
    static let movesInsideBatches = OpenDefects(rawValue: 1 << 2)
    /// A plain `Task` started inside a cancelled tracked task dispatches once that task has ended.
    static let plainTasksOfCancelledTasks = OpenDefects(rawValue: 1 << 3)
    /// An observer that dispatches while hearing a time-travel move commits while the past is shown.
    static let observersOfMovesDispatching = OpenDefects(rawValue: 1 << 4)
    /// A task cancelled after its dispatch was held (or waited for a suspension), and then ended: the
    /// dispatch is delivered.
    static let dispatchesOfTasksCancelledLater = OpenDefects(rawValue: 1 << 5)
    /// An observer's `cancelTasks(id:)` does not reach an effect its step asked for.
    static let observersCancellingTheirStepsEffects = OpenDefects(rawValue: 1 << 6)
    /// A middleware that throws after `next`: the task an observer of the step started is dropped.
    static let observerTasksOfStepsMiddlewareFailed = OpenDefects(rawValue: 1 << 7)
    /// A task cancelled while its own dispatch is under way: what that dispatch queued is refused.
    static let tasksCancelledDuringTheirDispatch = OpenDefects(rawValue: 1 << 8)
    /// A task's dispatch that waited for a suspension, released while the past is shown, is refused
    /// (reported as a queued action's error) instead of held.
    static let taskDispatchesReleasedInThePast = OpenDefects(rawValue: 1 << 10)
    /// A task awaiting `waitUntilDrained()` waits for itself, forever.
    static let drainsFromTasks = OpenDefects(rawValue: 1 << 12)
    /// Threaded mode: a dispatch racing a time-travel move returns without an error and is lost.
    static let dispatchesRacingMoves = OpenDefects(rawValue: 1 << 15)
    /// Threaded mode: a held dispatch is applied after the dispatch of a task an observer of the move
    /// back started (the held one was made first).
    static let tasksOfObserversOfMovesBack = OpenDefects(rawValue: 1 << 16)

    /// Every switch: what the random run avoids today.
    static let all: OpenDefects = [
        .effectsKeptPastTheirCall, .movesInsideBatches, .plainTasksOfCancelledTasks,
        .observersOfMovesDispatching, .dispatchesOfTasksCancelledLater, .observersCancellingTheirStepsEffects,
        .observerTasksOfStepsMiddlewareFailed, .tasksCancelledDuringTheirDispatch,
        .taskDispatchesReleasedInThePast, .drainsFromTasks,
        .dispatchesRacingMoves, .tasksOfObserversOfMovesBack,
    ]

    /// Whether `operation`, taken after `model`, meets a combination switched off here.
    func excludes(_ operation: Operation, after model: ReferenceModel) -> Bool {
        let commands = operation.commands
        let plans = operation.plans
        let arms = model.observerArms.values.joined()
        let checks: [(OpenDefects, Bool)] = [
            (.effectsKeptPastTheirCall, commands.contains(where: \.reusesEffects)),
            (.movesInsideBatches, operation.isBatchSteppingBack),
            (.plainTasksOfCancelledTasks, plans.contains { $0.child != nil }),
            (.observersOfMovesDispatching, operation.isMove && arms.contains(where: \.dispatches)),
            (.dispatchesOfTasksCancelledLater, plans.contains(where: \.lingers)),
            (.observersCancellingTheirStepsEffects, operation.armsObserverCancelling),
            (
                .observerTasksOfStepsMiddlewareFailed,
                (operation == .armMiddleware(.throwAfterNext) && arms.contains(where: \.startsTask))
                    || (operation.armsObserverStartingTask && model.middlewareArms.contains(.throwAfterNext))
            ),
            // NB: any effect or task a step starts may start while a task's dispatch is under way.
            (
                .tasksCancelledDuringTheirDispatch,
                plans.dropFirst(operation.startsTaskFromOutside ? 1 : 0).contains(where: \.cancelInFlight)
            ),
            (.drainsFromTasks, plans.contains(where: \.drains)),
            (
                .taskDispatchesReleasedInThePast,
                operation == .release && model.suspensions == 1 && model.isTravelling
                    && model.waiting.contains { if case .task = $0 { true } else { false } }
            ),
        ]
        return checks.contains { contains($0.0) && $0.1 }
    }

    /// Whether no operation of `program` meets a switched-off combination.
    func permits(_ program: Program) -> Bool {
        var model = ReferenceModel()
        for operation in program.operations {
            if excludes(operation, after: model) { return false }
            model.apply(operation)
        }
        return true
    }
}
