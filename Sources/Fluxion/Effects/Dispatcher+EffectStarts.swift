import Foundation

// An effect's way from its handler to its task. Most often its step queued nothing else, and the turn's
// queue is empty when the step commits: the commit tracks the effect in the lock it takes anyway, the
// holder starts its task once the step is over (its observers have heard it, its journal has recorded it),
// and attaches the task in the lock that ends the turn — no hop through the turn's queue, and two lock
// pairs fewer. Otherwise the effect's start is queued, in its place, as a start of its own (see
// `EffectStarts`).
extension Dispatcher {
    /// Asks for an effect of the running action: it starts once the action commits.
    ///
    /// - Parameter call: The handler call the ``Effects`` was given to: it is valid only during that call.
    func requestEffect(
        id: TaskKey?,
        cancellingInFlight: Bool,
        priority: TaskPriority?,
        inCall call: UInt64,
        _ work: @escaping @Sendable (Dispatcher) async throws -> Void
    ) {
        guard runsHandlerCall(call) else {
            let name = id.map { "\($0.value)" }
            return report(
                TaskError(.refused, taskID: id?.value, action: nil, error: FluxionError.effectOutsideHandler(name)))
        }
        let place = steps.placeEffect()
        transaction.keep(
            effect: TrackedTask(
                dispatcher: ObjectIdentifier(self), id: id, effectOf: (place.step, place.index, transaction.actionName),
                work: work, priority: priority, cancellingInFlight: cancellingInFlight))
    }

    /// Tracks the effects the transaction that just committed requested, to start before anything queued
    /// runs; returns whether it did: `false`, tracking nothing, when the turn's queue holds actions already
    /// (their starts are then queued behind those, by the caller).
    ///
    /// NB: called only when the transaction queued nothing else (see `EffectStarts`).
    func trackRequestedEffects() -> Bool {
        var cancellations: [any TaskCancelling] = []
        let tracked = state.withLock { state -> Bool in
            // NB: what is queued already runs first; so do the effects' starts, as starts of their own.
            guard state.turn.isQueueEmpty else { return false }
            // NB: tested first: copying an absent existential still costs its witnesses' calls.
            if state.taskStarter != nil { transaction.effects.starter = state.taskStarter }
            if !state.taskEventObservers.isEmpty {
                transaction.effects.observers = Array(state.taskEventObservers.values)
            }
            for task in transaction.effects.requested {
                // NB: a replay starts no task: what the recorded ones dispatched replays from the journal's lines.
                guard state.effectPauses == 0 else {
                    task.isSkipped = true
                    continue
                }
                if task.cancellingInFlight { hasCancelledTasks.set(true) }
                let handles = state.tasks.begin(task, cancellingInFlight: task.cancellingInFlight)
                if !handles.isEmpty { cancellations += handles }
            }
            if !hasStartedTasks.isSet { hasStartedTasks.set(true) }
            state.turn.taskCount = state.tasks.count
            // NB: with effects of an earlier commit still to start, the earlier count tells about them all.
            if transaction.effects.committed.isEmpty { transaction.effects.cancellations = state.tasks.cancellations }
            taskCancellations.store(state.tasks.cancellations)
            return true
        }
        guard tracked else { return false }
        if transaction.effects.committed.isEmpty {
            swap(&transaction.effects.committed, &transaction.effects.requested)
        } else {
            transaction.effects.committed.append(contentsOf: transaction.effects.requested)
            transaction.effects.requested.removeAll(keepingCapacity: true)
        }
        for cancellation in cancellations { cancellation.cancel() }
        return true
    }

    /// Starts the tasks of the effects tracked as their steps committed, in order, for the turn's next
    /// lock to attach. Called by the turn holder before it runs anything queued, and before it gives the turn up,
    /// when there are some.
    func startCommittedEffects() -> StartedEffects {
        let transaction = self.transaction
        // NB: a cancellation that reached a committed effect before its task exists keeps its work from running.
        if taskCancellations.value != transaction.effects.cancellations {
            state.withLock { _ in
                for task in transaction.effects.committed where task.isCancelled { task.startsCancelled = true }
            }
        }
        var started = StartedEffects()
        if transaction.effects.observers.isEmpty, transaction.effects.starter == nil {
            // NB: most often: nothing to tell, nothing to start the tasks but `Task`, started here, as `start` does.
            for task in transaction.effects.committed where !task.isSkipped {
                started.append(task, Task(priority: task.priority) { [self, task] in try await execute(effect: task) })
            }
        } else {
            startEffects(observed: transaction.effects.observers, into: &started)
        }
        transaction.effects.committed.removeAll(keepingCapacity: true)
        return started
    }

    /// Starts the committed effects through the task starter, telling the observers of task events.
    private func startEffects(observed observers: [@Sendable (TaskEvent) -> Void], into started: inout StartedEffects) {
        for task in transaction.effects.committed {
            guard let effect = task.effect else { continue }
            if task.isSkipped {
                for observer in observers { observer(.skipped(effect)) }
                continue
            }
            if !observers.isEmpty {
                let event = TaskEvent.started(effect, at: .readingRealTimeClock())
                for observer in observers { observer(event) }
            }
            started.append(task, start(task, through: transaction.effects.starter))
        }
        if !observers.isEmpty { transaction.effects.observers = [] }
        transaction.effects.starter = nil
    }

    /// Starts the task of a tracked effect.
    ///
    /// The task's operation keeps the dispatcher until the task ends (a dispatcher let go meanwhile lives
    /// until then), with the one reference count its capture takes: the dispatcher is weakly referenced by
    /// its stores, and such an object's counts take the runtime's slow path.
    func start(_ task: TrackedTask, through starter: (any TaskStarter)?) -> Task<Void, any Error> {
        // NB: the operation is written in the call, so made in the form `Task` takes: no thunk converts it.
        guard let starter else {
            return Task(priority: task.priority) { [self, task] in try await execute(effect: task) }
        }
        return starter.start(priority: task.priority) { [self, task] in try await execute(effect: task) }
    }

    /// Starts an effect whose start was queued behind other work (see `EffectStarts`).
    func startQueued(effect task: TrackedTask) {
        guard let tracking = track(task, cancellingInFlight: task.cancellingInFlight) else { return }
        let started = start(task, through: tracking.starter)
        if state.withLock({ $0.tasks.attach(effect: started, to: task) }) { started.cancel() }
    }

    /// Runs an effect's work marked as its code; reports what it throws, and forgets the task when it ends.
    func execute(effect task: TrackedTask) async throws {
        var outcome = EffectOutcome.finished
        defer {
            endTask(task, outcome)
            // NB: the work is released as the task ends, whoever keeps the task.
            task.work = nil
        }
        if !TrackedTask.wasEverBound.isSet { TrackedTask.wasEverBound.set(true) }
        // NB: a task cancelled before it started (a queued start `cancelTasks(id:)` reached) never runs its work.
        guard !task.startsCancelled, let work = task.work else {
            outcome = .cancelled
            throw CancellationError()
        }
        do {
            try await TrackedTask.$current.withValue(task) { try await work(self) }
        } catch {
            outcome = reportThrown(error, by: task)
            throw error
        }
    }
}
