import Foundation

// An effect's way from its handler to its task. Most often its step queued nothing else, and the turn's
// queue is empty when the step commits: the commit tracks the effect in the lock it takes anyway, the
// holder starts its task once the step is over (its observers have heard it, its journal has recorded it),
// and attaches the task in the lock that ends the turn — no hop through the turn's queue, and two lock
// pairs fewer. Otherwise the effect's start is queued, in its place, as a start of its own (see
// `EffectStarts`); either way, no effect's work begins before the turn's queue is empty.
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
        // NB: the count of cancellations so far, read unlocked: one asked for after it reaches it at the commit.
        transaction.keep(
            effect: TrackedTask(
                dispatcher: ObjectIdentifier(self), id: id, requestSerial: taskCancellations.value,
                effectOf: (place.step, place.index, transaction.actionName), work: work, priority: priority,
                cancellingInFlight: cancellingInFlight))
    }

    /// Tracks the effects the transaction that just committed requested, to start before the turn is given up;
    /// returns whether it did: `false`, tracking nothing, when the turn's queue holds actions already (their
    /// starts are then queued behind those, by the caller).
    ///
    /// The cancellations asked for since each effect was asked for reach it here, in the lock.
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
            // NB: with effects of an earlier commit still to start, the earlier count tells about them all.
            if transaction.effects.committed.isEmpty { transaction.effects.cancellations = state.tasks.cancellations }
            for task in transaction.effects.requested {
                // NB: a replay starts no task: what the recorded ones dispatched replays from the journal's lines.
                guard state.effectPauses == 0 else {
                    task.isSkipped = true
                    continue
                }
                if task.cancellingInFlight { hasCancelledTasks.set(true) }
                let handles = state.tasks.begin(task, cancellingInFlight: task.cancellingInFlight)
                if !handles.isEmpty { cancellations += handles }
                taskHolds.add(1)
            }
            // NB: every task the step asked for is tracked: the cancellations it was checked against are told.
            state.tasks.forgetRecent()
            if !hasStartedTasks.isSet { hasStartedTasks.set(true) }
            state.turn.taskCount = state.tasks.count
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
    /// lock to attach. Called by the turn holder when nothing is queued behind the step, and there are some.
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
                task.owner = self
                let handle = Task(priority: task.priority) { [task] in try await Dispatcher.execute(effect: task) }
                started.append(task, handle)
            }
        } else {
            let starter = transaction.effects.starter
            tellCommittedEffects { task in started.append(task, start(task, through: starter)) }
        }
        transaction.effects.committed.removeAll(keepingCapacity: true)
        return started
    }

    /// Tells the observers of task events that the committed effects started, and keeps them to start once
    /// nothing is queued; called by the turn holder after each step while the turn's queue has more to run.
    func deferCommittedEffects() {
        guard !transaction.effects.committed.isEmpty else { return }
        let transaction = self.transaction
        tellCommittedEffects { transaction.effects.awaiting.append($0) }
        transaction.effects.committed.removeAll(keepingCapacity: true)
        transaction.effects.defersStarts = true
    }

    /// Tells the observers of task events about each committed effect, in order: skipped (a replay), or
    /// started, and then hands it to `body`.
    private func tellCommittedEffects(_ body: (TrackedTask) -> Void) {
        let observers = transaction.effects.observers
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
            body(task)
        }
        if !observers.isEmpty { transaction.effects.observers = [] }
        transaction.effects.starter = nil
    }

    /// Marks the tasks kept for the end of the turn that a cancellation reached meanwhile, so that their work
    /// never runs; returns what starts them. Called with the lock held, once nothing is queued.
    func prepareAwaitingStarts(in state: inout DispatcherState) -> (any TaskStarter)? {
        for task in transaction.effects.awaiting where task.isCancelled { task.startsCancelled = true }
        for (task, _) in transaction.effects.awaitingGates where task.isCancelled { task.startsCancelled = true }
        return state.taskStarter
    }

    /// Starts the tasks kept for the end of the turn, in order, for the next lock to attach; opens the gates
    /// of the tasks `dispatchTask` started from a step.
    func startAwaitingTasks(through starter: (any TaskStarter)?) -> StartedEffects {
        var started = StartedEffects()
        for task in transaction.effects.awaiting { started.append(task, start(task, through: starter)) }
        transaction.effects.awaiting.removeAll(keepingCapacity: true)
        if !transaction.effects.awaitingGates.isEmpty {
            let gates = transaction.effects.awaitingGates
            transaction.effects.awaitingGates = []
            for (task, keeper) in gates { open(keeper, as: task) }
        }
        transaction.effects.defersStarts = false
        return started
    }

    /// Starts the task of a tracked effect.
    ///
    /// The task keeps the dispatcher until its work ends (a dispatcher let go meanwhile lives until then),
    /// through the effect's record, which lets go of it before the drain waiters hear of the end. The
    /// operation captures the record alone, which serves as its context.
    func start(_ task: TrackedTask, through starter: (any TaskStarter)?) -> Task<Void, any Error> {
        task.owner = self
        // NB: the operation is written in the call, so made in the form `Task` takes: no thunk converts it.
        guard let starter else {
            return Task(priority: task.priority) { [task] in try await Dispatcher.execute(effect: task) }
        }
        return starter.start(priority: task.priority) { [task] in try await Dispatcher.execute(effect: task) }
    }

    /// Lets the work of `task`, a task `dispatchTask` started from a step, run, for this dispatcher.
    private func open(_ keeper: TaskGateKeeper, as task: TrackedTask) {
        task.owner = self
        keeper.gate.open(as: task)
    }

    /// Tracks an effect whose start was queued behind other work (see `EffectStarts`); its task starts
    /// once nothing is queued.
    func startQueued(effect task: TrackedTask) {
        guard track(task, cancellingInFlight: task.cancellingInFlight) != nil else { return }
        transaction.effects.awaiting.append(task)
        transaction.effects.defersStarts = true
    }

    /// Runs an effect's work marked as its code; reports what it throws, and forgets the task when it ends.
    ///
    /// NB: the dispatcher is let go before the drain waiters resume: `shutdown()` returns with none kept.
    static func execute(effect task: TrackedTask) async throws {
        // NB: set before its task was started, and taken only here.
        let dispatcher = task.owner.take().unsafelyUnwrapped
        if !TrackedTask.wasEverBound.isSet { TrackedTask.wasEverBound.set(true) }
        // NB: a task cancelled before it started — before its turn ended — never runs its work. Once started,
        // it runs, and sees its cancellation as Swift tasks do.
        guard !task.startsCancelled, task.work != nil else {
            task.work = nil  // NB: released before the drain waiters hear of the end, with what it captured
            end(task, .cancelled, letting: consume dispatcher)
            throw CancellationError()
        }
        do {
            try await runWork(of: task, on: dispatcher)
        } catch {
            let outcome = dispatcher.reportThrown(error, by: task)
            end(task, outcome, letting: consume dispatcher)
            throw error
        }
        end(task, .finished, letting: consume dispatcher)
    }

    /// Runs the work of `task`, taken out of it: when this returns, the work and what it captured are let go
    /// (the drain waiters, which hear of the end next, may then find the dispatcher freed).
    private static func runWork(of task: TrackedTask, on dispatcher: Dispatcher) async throws {
        let work = task.work.take().unsafelyUnwrapped
        try await TrackedTask.$current.withValue(task) { try await work(dispatcher) }
    }
}
