import Foundation

// Starting, ending and cancelling the tasks a dispatcher tracks. A task asked for while a step runs
// is an effect of that step: it starts when the step's action commits, and never if it rolls back.
extension Dispatcher {
    /// Starts a tracked task now; or, asked for while an action runs, once that action commits.
    func scheduleTask<Value: Sendable>(
        id: TaskKey?,
        cancellingInFlight: Bool,
        priority: TaskPriority?,
        _ work: @escaping @Sendable (Dispatcher) async throws -> Value
    ) -> Task<Value, any Error> {
        var facts = Admission.Facts()
        // NB: `steps` is read only once this thread is known to hold the turn.
        facts.runsStep = holdsTurn() && steps.isRunning
        let parent = facts.runsStep ? nil : currentTask
        facts.isInCancelledTask = parent.map(isCancelled) ?? false
        switch Admission.decide(.taskStart, facts) {
        case .refuse:
            report(TaskError(.refused, taskID: parent?.id?.value, action: nil, error: CancellationError()))
            return Task { throw CancellationError() }
        case .startNow:
            let tracked = TrackedTask(
                dispatcher: ObjectIdentifier(self), id: id, requestSerial: taskCancellations.value, parent: parent)
            return startTask(tracked, cancellingInFlight: cancellingInFlight, priority: priority, work)
                ?? Task { throw CancellationError() }
        default:
            break  // NB: it starts on commit, with the step's deferred work
        }
        // NB: a batch's closure is its caller's own code: a task that runs one started what it starts.
        let isBatchClosure = transaction.isBatch && !transaction.isRunningBatchAction
        let action = isBatchClosure ? AnyAction.batchName : transaction.actionName
        let place = steps.placeEffect()
        // NB: the count of cancellations so far, read unlocked: one asked for after it reaches it before it starts.
        let tracked = TrackedTask(
            dispatcher: ObjectIdentifier(self), id: id, requestSerial: taskCancellations.value,
            effectOf: (place.step, place.index, action), parent: isBatchClosure ? currentTask : nil)
        let gate = TaskGate()
        let task = makeTask(priority: priority) {
            guard let tracked = await gate.wait() else { throw CancellationError() }
            return try await Dispatcher.execute(work, as: tracked)
        }
        let keeper = TaskGateKeeper(gate)
        let start = QueuedAction(effectOf: AnyAction(name: action), cause: .queued(by: steps.serial), starting: tracked)
        {
            dispatcher in
            guard dispatcher.track(tracked, cancellingInFlight: cancellingInFlight) != nil else {
                return keeper.gate.drop()
            }
            dispatcher.attach(task, to: tracked)
            // NB: its work begins once nothing is queued, as an effect's does (see `EffectStarts`).
            dispatcher.transaction.effects.awaitingGates.append((tracked, keeper))
            dispatcher.transaction.effects.defersStarts = true
        }
        // NB: from a handler, or a middleware before the action committed, it starts with the commit; from
        // an observer or a middleware after `next`, the action has committed: it is queued behind the step
        // at once, in order with what they dispatch.
        if transaction.isOpen || (middlewareRuns.isRunning && !transaction.hasCommitted(step: steps.serial)) {
            transaction.enqueue(start)
        } else {
            var queue = ActionQueue()
            queue.append(start)
            transaction.effects.defersStarts = true
            state.withLock { state in
                state.tasks.queueStart(of: tracked)
                state.turn.enqueue(&queue)
            }
        }
        return task
    }

    /// Tracks and starts a task; `nil` while a replay pauses tasks.
    private func startTask<Value: Sendable>(
        _ tracked: TrackedTask,
        cancellingInFlight: Bool,
        priority: TaskPriority?,
        _ work: @escaping @Sendable (Dispatcher) async throws -> Value
    ) -> Task<Value, any Error>? {
        guard let starter = track(tracked, cancellingInFlight: cancellingInFlight) else { return nil }
        tracked.owner = self
        let operation: @Sendable () async throws -> Value = { try await Dispatcher.execute(work, as: tracked) }
        let task =
            starter.starter?.start(priority: priority, operation) ?? Task(priority: priority, operation: operation)
        attach(task, to: tracked)
        return task
    }

    /// Makes a task, through the task starter if there is one.
    private func makeTask<Value: Sendable>(
        priority: TaskPriority?,
        _ operation: @escaping @Sendable () async throws -> Value
    ) -> Task<Value, any Error> {
        let starter = state.withLock { $0.taskStarter }
        return starter?.start(priority: priority, operation) ?? Task(priority: priority, operation: operation)
    }

    /// What starts a tracked task: the dispatcher's task starter, if it has one.
    struct Tracking {
        let starter: (any TaskStarter)?
    }

    /// Tracks a task about to start, cancelling those it replaces; returns what starts it, `nil` while a replay
    /// pauses tasks (it is then not tracked).
    func track(_ tracked: TrackedTask, cancellingInFlight: Bool) -> Tracking? {
        var observers: [@Sendable (TaskEvent) -> Void] = []
        let began = state.withLock { state -> ([any TaskCancelling], (any TaskStarter)?)? in
            if tracked.effect != nil, !state.taskEventObservers.isEmpty {
                observers = Array(state.taskEventObservers.values)
            }
            // NB: a replay starts no task: what the recorded ones dispatched replays from the journal's lines.
            guard state.effectPauses == 0 else {
                state.tasks.forgetStart(of: tracked)
                if tracked.effect == nil { state.replayOmissions.tasks += 1 }
                return nil
            }
            if !hasStartedTasks.isSet { hasStartedTasks.set(true) }
            if cancellingInFlight { hasCancelledTasks.set(true) }
            let cancellations = state.tasks.begin(tracked, cancellingInFlight: cancellingInFlight)
            taskHolds.add(1)
            state.turn.taskCount = state.tasks.count
            taskCancellations.store(state.tasks.cancellations)
            return (cancellations, state.taskStarter)
        }
        guard let (cancellations, starter) = began else {
            if let effect = tracked.effect { for observer in observers { observer(.skipped(effect)) } }
            return nil
        }
        for cancellation in cancellations { cancellation.cancel() }
        if let effect = tracked.effect, !observers.isEmpty {
            let event = TaskEvent.started(effect, at: .readingRealTimeClock())
            for observer in observers { observer(event) }
        }
        return Tracking(starter: starter)
    }

    /// Records how to cancel a tracked task; a cancellation that came before is applied now.
    func attach<Value>(_ task: Task<Value, any Error>, to tracked: TrackedTask) {
        if state.withLock({ $0.tasks.attach(task, to: tracked) }) { task.cancel() }
    }

    /// Runs a task's work marked as its code; reports what it throws, and forgets the task when it ends.
    ///
    /// NB: the dispatcher is let go before the drain waiters resume: `shutdown()` returns with none kept.
    private static func execute<Value: Sendable>(
        _ work: @escaping @Sendable (Dispatcher) async throws -> Value,
        as tracked: TrackedTask
    ) async throws -> Value {
        // NB: set before its work may run (its registration, or its gate's opening), and taken only here.
        let dispatcher = tracked.owner.take().unsafelyUnwrapped
        TrackedTask.wasEverBound.set(true)
        // NB: a task cancelled before it started (a queued start `cancelTasks(id:)` reached) never runs its work.
        if tracked.startsCancelled {
            end(tracked, .cancelled, letting: consume dispatcher)
            throw CancellationError()
        }
        let value: Value
        do {
            value = try await TrackedTask.$current.withValue(tracked) { try await work(dispatcher) }
        } catch {
            let outcome = dispatcher.reportThrown(error, by: tracked)
            end(tracked, outcome, letting: consume dispatcher)
            throw error
        }
        end(tracked, .finished, letting: consume dispatcher)
        return value
    }

    /// Forgets an ended task, lets go of its dispatcher, then tells of the end: a `shutdown()` the end
    /// resumes returns with nothing of the dispatcher kept.
    static func end(_ task: TrackedTask, _ outcome: EffectOutcome, letting dispatcher: consuming Dispatcher) {
        let holds = dispatcher.taskHolds
        let end = dispatcher.endTask(task, outcome)
        _ = consume dispatcher
        holds.release()
        end?.tell()
    }

    /// Reports what a task's work threw, unless it is the `CancellationError` of a cancelled task.
    func reportThrown(_ error: any Error, by task: TrackedTask) -> EffectOutcome {
        if error is CancellationError, Task.isCancelled || isCancelled(task) { return .cancelled }
        report(TaskError(.threw, taskID: task.id?.value, action: task.effect?.action, error: error))
        return .failed(error)
    }

    /// Forgets an ended task; returns what to tell of its end once the task has let go of the dispatcher, or
    /// `nil` when nobody waits or watches (most often).
    func endTask(_ task: TrackedTask, _ outcome: EffectOutcome) -> TaskEnd? {
        state.withLock { state -> TaskEnd? in
            state.tasks.end(task)
            state.turn.taskCount = state.tasks.count
            // NB: most often nobody waits or watches: nothing is copied out of the lock.
            guard state.turn.hasDrainWaiters || !state.taskEndObservers.isEmpty || !state.taskEventObservers.isEmpty
            else { return nil }
            let events =
                task.effect == nil || state.taskEventObservers.isEmpty ? [] : Array(state.taskEventObservers.values)
            return TaskEnd(
                effect: task.effect, outcome: outcome, waiters: state.turn.takeDrainWaitersIfDrained(),
                observers: state.taskEndObservers, events: events)
        }
    }

    /// The tracked task of this dispatcher the running code belongs to, if any.
    ///
    /// NB: a task is tracked before its code runs, so code that reads `hasStartedTasks` unset belongs to
    /// no task of this dispatcher: the task-local value, which costs a tenth of a recorded dispatch, is
    /// read only by a dispatcher that started tasks.
    var currentTask: TrackedTask? {
        guard hasStartedTasks.isSet else { return nil }
        return TrackedTask.currentIfAny.flatMap { $0.dispatcher == ObjectIdentifier(self) ? $0 : nil }
    }

    /// The cause of a dispatch made now by code that is not running a step: an effect of this dispatcher
    /// (the task-local value of another dispatcher's effect names a step of that one), or outside.
    var causeOfCurrentTask: StepCause {
        Self.cause(of: currentTask)
    }

    /// The cause of a dispatch by the code of `task`: the effect it is, if it is one, or outside.
    static func cause(of task: TrackedTask?) -> StepCause {
        task?.effect.map(StepCause.effect) ?? .outside
    }

    /// The action `queued` makes for the running code's task, with that task's cause.
    func queuedByItsTask(_ queued: (StepCause, TrackedTask?) -> QueuedAction) -> QueuedAction {
        let task = currentTask
        return queued(Self.cause(of: task), task)
    }

    /// Whether `task`, or a task that started it, was cancelled through the dispatcher, even if it has ended.
    func isCancelled(_ task: TrackedTask) -> Bool {
        hasCancelledTasks.isSet && state.withLock { _ in task.isCancelled }
    }

    /// Refuses, reporting it, what the running code does if it belongs to a task cancelled through the dispatcher.
    ///
    /// - Throws: `CancellationError` then.
    func refuseIfInCancelledTask(_ action: String) throws {
        guard let task = currentTask, isCancelled(task) else { return }
        report(TaskError(.refused, taskID: task.id?.value, action: action, error: CancellationError()))
        throw CancellationError()
    }

    /// Calls `observer` after each task started with `dispatchTask` ends, on the task's thread.
    package func observeTaskEnds(_ observer: @escaping @Sendable () -> Void) {
        state.withLock { $0.taskEndObservers.append(observer) }
    }

    /// Calls `observer` with what happens to each effect from now on; returns the key to stop it with.
    func observeTaskEvents(_ observer: @escaping @Sendable (TaskEvent) -> Void) -> Int {
        state.withLock { state in
            defer { state.nextTaskEventKey += 1 }
            state.taskEventObservers[state.nextTaskEventKey] = observer
            return state.nextTaskEventKey
        }
    }

    /// Stops the observer ``observeTaskEvents(_:)`` returned `key` for.
    func stopObservingTaskEvents(_ key: Int) {
        let removed = state.withLock { $0.taskEventObservers.removeValue(forKey: key) }
        withExtendedLifetime(removed) {}  // NB: released here, outside the lock
    }

    /// Runs `body` with tasks paused: no tracked task starts, effect or not (a replay).
    func withEffectsPaused<Value>(_ body: () throws -> Value) rethrows -> Value {
        state.withLock { $0.effectPauses += 1 }
        defer { state.withLock { $0.effectPauses -= 1 } }
        return try body()
    }
}
