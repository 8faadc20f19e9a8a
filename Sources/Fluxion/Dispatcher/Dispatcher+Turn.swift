// The dispatch turn: which thread runs actions now, and what the others do meanwhile.
// Every decision is `TurnState`'s, made under the lock; what it decides runs here, unlocked.
extension Dispatcher {
    /// What a dispatch does, decided under the lock.
    private enum Decision {
        /// The turn holder dispatched inside a transaction: the action becomes part of it.
        case joinsTransaction
        /// The action waits in a queue.
        case queued
        /// The action comes from a cancelled task: it is refused.
        case cancelled
        /// The caller holds the turn: it runs the action through the middleware chain and the journal's
        /// recorder, if any, and through `list`.
        case run(RouteList, through: MiddlewareChain.Passage)
    }

    /// Takes the dispatch turn, runs the action, then the actions queued meanwhile.
    ///
    /// An action dispatched by the turn holder is queued behind its action; one
    /// dispatched while the dispatcher is suspended waits for the release.
    ///
    /// - Parameters:
    ///   - exclusively: Whether the action runs even while the dispatcher is suspended.
    ///   - queued: Makes the queued form of the action.
    ///   - erased: The action with its payload type erased, for the middleware.
    ///   - handlers: Runs the action through the handlers of its route list; called with the turn held.
    func dispatchOrQueue(
        _ name: String,
        exclusively: Bool,
        queued: (StepCause, TrackedTask?) -> QueuedAction,
        erased: () -> AnyAction,
        handlers: (RouteList) throws -> Void
    ) throws {
        let thread = ThreadID.current
        let decision = state.withLockWaiting(until: { state -> Decision? in
            // NB: the turn holder alone touches the transaction; this thread holds the turn when it matches.
            if state.isInCancelledTask(of: ObjectIdentifier(self)) { return .cancelled }
            if state.turn.holder == thread, transaction.isOpen { return .joinsTransaction }
            // NB: while a journal shows the past, tasks' dispatches wait for the present, in order.
            if state.turn.holdsTaskDispatches, let task = currentTask {
                state.turn.hold(queued(.ofCurrentTask, task))
                return .queued
            }
            let arrival = state.turn.arrive(
                thread, isCreatingForHolder: state.isCreatingForHolder(thread), exclusively: exclusively
            ) { byHolder in
                // NB: the holder's own code queues behind its step; others wait with their task's cause.
                byHolder ? queued(steps.causeOfQueued ?? .ofCurrentTask, nil) : queued(.ofCurrentTask, currentTask)
            }
            switch arrival {
            case nil: return nil  // NB: another thread holds the turn: wait, and ask again
            case .queued?: return .queued
            case .run?:
                return .run(state.index.list(for: name), through: state.middleware.passage)
            }
        })
        switch decision {
        case .joinsTransaction:
            transaction.enqueue(queued(steps.causeOfQueued ?? .ofCurrentTask, nil))
        case .queued:
            return
        case .cancelled:
            report(TaskError(.refused, taskID: currentTask?.id?.value, action: name, error: CancellationError()))
            throw CancellationError()
        case .run(let list, let passage):
            var failure: (any Error)?
            let began = steps.beginDirect()
            do {
                try runAction(list, through: passage, erased: erased, handlers: handlers)
            } catch {
                failure = error
            }
            steps.end(began)
            runQueuedActionsAndEndTurn()
            if let failure { throw failure }
        }
    }

    /// Runs `body` holding the dispatch turn, so that no action runs meanwhile, then the actions it queued.
    func withTurn<Value>(_ body: () throws -> Value) rethrows -> Value {
        let thread = ThreadID.current
        let takesTurn = state.withLockWaiting(until: { state -> Bool? in
            if state.admits(thread) { return false }
            guard state.turn.take(by: thread) else { return nil }
            state.turn.holderIsBetweenActions = true
            return true
        })
        // NB: this thread holds the turn already, or the holder waits for this thread's factory.
        guard takesTurn else { return try body() }
        defer {
            state.withLock { $0.turn.holderIsBetweenActions = false }
            runQueuedActionsAndEndTurn()
        }
        return try body()
    }

    /// Whether the calling thread holds the dispatch turn; read without the lock, as only the
    /// holder names itself there, and only it clears its name.
    func holdsTurn(_ thread: ThreadID = .current) -> Bool {
        turnHolder.names(thread)
    }

    /// Runs the queued actions in order, then gives up the dispatch turn.
    func runQueuedActionsAndEndTurn() {
        // NB: most often nothing was queued and nobody waits for a drain: the turn just ends.
        let ended = state.withLock { state in
            guard state.turn.endIfIdle() else { return false }
            self.state.broadcast()
            return true
        }
        if ended { return }
        var waiters: [CheckedContinuation<Void, Never>] = []
        while let action = state.withLock({ state in
            let next = state.turn.next(endingWith: &waiters)
            if next == nil { self.state.broadcast() }
            return next
        }) {
            do {
                try action.run(on: self)
            } catch {
                report(error, of: action.action)
            }
        }
        for waiter in waiters { waiter.resume() }
    }

    // MARK: Suspending

    /// Adds a suspension; see ``suspend()``.
    func beginSuspension() {
        state.withLock { $0.turn.beginSuspension() }
    }

    /// Removes a suspension; the last one runs the actions dispatched meanwhile, in order.
    ///
    /// When an action is running, the waiting actions join its queue and run
    /// before its dispatch returns; otherwise this thread takes the turn and runs them.
    func endSuspension() {
        let (runsQueue, waiters) = state.withLock { $0.turn.endSuspension(by: .current) }
        for waiter in waiters { waiter.resume() }
        if runsQueue { runQueuedActionsAndEndTurn() }
    }

    /// Whether a suspension is held.
    public var isSuspended: Bool {
        state.withLock { $0.turn.isSuspended }
    }

    /// Returns once no action is running, none waits for a suspension to end, and no task runs.
    ///
    /// ```swift
    /// suspension.release()
    /// await dispatcher.waitUntilDrained()  // every action dispatched while suspended has run
    /// ```
    ///
    /// While the dispatcher is suspended with actions waiting, this waits for
    /// the last suspension's release and for those actions to run. It also
    /// waits for the work started with ``dispatchTask(priority:_:)`` and
    /// ``dispatchTask(id:cancelInFlight:priority:_:)`` to end, and for what
    /// that work dispatches or starts in turn. It returns early when the
    /// calling task is cancelled, so that a time limit ends a test waiting here.
    public func waitUntilDrained() async {
        let id = state.withLock { $0.turn.drainWaiterID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if !state.withLock({ $0.turn.addDrainWaiter(continuation, id: id) }) { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.turn.cancelDrainWaiter(id) }?.resume()
        }
    }
}
