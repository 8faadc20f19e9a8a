// The dispatch turn: which thread runs actions now, and what the others do meanwhile.
// Where each arrival goes is decided under the lock, by `Admission.decide` (its table is there);
// what it decides runs here, unlocked. The whole way, from a caller to an effect's task (the names in
// backticks are functions and types: `.ci/diagram-names.py` checks that each exists):
//
//  caller ── `dispatch` ─▶ `receive` ─▶ `admit`: under the lock (`Guarded.withLockWaiting`), `Admission.decide`
//   │                       ├─ refuse ─────────────▶ throws (a cancelled task's: reported to onTaskError)
//   │                       ├─ joinTransaction ────▶ `Transaction.enqueue`: runs after the transaction commits
//   │                       ├─ queueBehindStep ────▶ the turn's queue: runs before the holder gives the turn up
//   │                       ├─ waitForRelease ─────▶ the suspension's queue: runs at the last release
//   │                       ├─ holdForPresent ─────▶ held: queued first by the move back to the present
//   │                       ├─ waitForTurn ────────▶ waits in line on the lock, and arrives again (`TurnLine`:
//   │                       │                         handed the turn within 64 turns of coming first)
//   │                       └─ run ─▶ with middleware or a journal, `forward`: each middleware, then the journal's
//   │                                  `JournalRecorder.record`, which refuses a step while the past is shown
//   │                                  (`JournalRecorder.refuseWhilePastIsShown`) ─▶
//   │                                  `transact`: `Transaction.runHandlers` ─▶ `Transaction.runHandler` for each
//   │                                  store ─▶ `Handler.run` ─▶ the handler (`Store.applyInPlace` changes its
//   │                                  state in place when it can, `Store.apply` a copy otherwise), which may ask
//   │                                  for an effect: `Effects.run` ─▶ `requestEffect` ─▶ `Transaction.keep`;
//   │                                  then `Transaction.end`: commit all, or roll all back
//   │                                   ├─ commit: `moveTransactionActions`: its deferred work (effects,
//   │                                   │   dispatchTask from the step, queued actions) moves to the turn's
//   │                                   │   queue; effects alone, with the turn's queue empty, are tracked
//   │                                   │   instead (`trackRequestedEffects`; see `EffectStarts`); either lock
//   │                                   │   checks the tasks against the cancellations made since they were
//   │                                   │   asked for (`TaskRegistry`); then observers hear it (`Transaction.deliver`)
//   │                                   └─ roll back: its deferred work is dropped (the tasks throw
//   │                                       CancellationError without running)
//   │◀── `drainQueueAndEndTurn`: with nothing queued, the tracked effects' tasks start (`startCommittedEffects`;
//         `execute` runs each one's work with the task-local `TrackedTask`) and the turn is given up in the lock
//         that attaches them; otherwise the queue runs first, in order (`QueuedAction.perform`; a queued effect's
//         start, `startQueued`, tracks its task), the tasks tracked meanwhile wait (`deferCommittedEffects`), and
//         once nothing is queued they start (`startAwaitingTasks`): a cancellation later in the turn keeps their
//         work from running. Then the turn is given up, and the drain waiters resume.
//
//  A batch runs the same way with one transaction across its actions; a read takes the turn between two
//  actions. A time-travel move (Journal.move) is a turn of its own: refused from inside one, it sets the
//  states as one batch heard as "Fluxion.travel", stops moving, and, reaching the present, queues the held
//  dispatches first. A replay dispatches each recorded step as an action or a batch, with tasks paused: no
//  task starts, and what its steps queue does not run (the journal's own lines replay in their place).
//
//  Hops (20): dispatch · receive · admit · Guarded.withLockWaiting · Admission.decide · transact ·
//  Transaction.runHandlers · Transaction.runHandler · Handler.run · Store.applyInPlace · Effects.run ·
//  Effects.request · requestEffect · Transaction.keep · Transaction.end · moveTransactionActions ·
//  trackRequestedEffects · drainQueueAndEndTurn · startCommittedEffects · execute.
//  Those are the named functions on the way of an action whose handler asks for one effect, from `dispatch` to
//  the effect's work, each once (an overload once), as `.ci/dispatch-hops.py` finds them in a debug build: 42
//  before issue 42, counted by hand; 30 by that script.
//  One verb per layer: receive (a dispatcher's entry), admit (admission), forward (middleware), record
//  (journal), transact (transaction), run (handlers), keep (a request, until the commit), perform (the turn's
//  queue), track (a task's record), start (a task), execute (a task's work).
extension Dispatcher {
    /// Receives an action: asks admission where it goes (``admit(_:from:in:queueing:)``), then runs it now,
    /// holding the dispatch turn, then the actions queued meanwhile; or makes it part of the running
    /// transaction, queues it, or refuses it (see ``Admission``).
    ///
    /// An action dispatched by the turn holder is queued behind its action; one
    /// dispatched while the dispatcher is suspended waits for the release. The action travels as its parts,
    /// so that no generic type is built on the way.
    ///
    /// - Parameters:
    ///   - untyped: The action whole, when it was dispatched untyped (its payload, opened, is then `payload`).
    ///   - exclusively: Whether the action runs even while the dispatcher is suspended.
    func receive<Payload: Sendable>(
        _ name: String, payload: Payload, error: (any Error)?, untyped: UnsafePointer<AnyAction>? = nil,
        exclusively: Bool = false
    ) throws {
        let admitted = admit(name, exclusively: exclusively) {
            QueuedAction(name, payload: payload, error: error, untyped: untyped, cause: $0, task: $1)
        }
        switch admitted {
        case .decided(.joinTransaction):
            transaction.enqueue(
                QueuedAction(
                    name, payload: payload, error: error, untyped: untyped,
                    cause: steps.causeOfQueued ?? causeOfCurrentTask, task: nil))
        case .decided(.refuse):
            throw refusal(of: untyped?.pointee ?? AnyAction(name: name, payload: payload, error: error), named: name)
        case .decided:
            return  // NB: queued behind the step, waiting for a release, or held for the present
        case .runs(let list, let passage):
            var failure: (any Error)?
            let began = steps.beginDirect()
            do {
                // NB: without middleware and a journal, the action goes straight to its stores, made first on
                // their first need.
                if !passage.isEmpty {
                    try forward(list, through: passage, name, payload: payload, error: error, untyped: untyped)
                } else if list.isReady {
                    try transact(list, name, payload: payload, error: error, untyped: untyped)
                } else {
                    try transact(ready(list), name, payload: payload, error: error, untyped: untyped)
                }
            } catch {
                failure = error
            }
            steps.end(began)
            drainQueueAndEndTurn()
            if let failure { throw failure }
        }
    }

    /// ``receive(_:payload:error:untyped:exclusively:)`` for an untyped action.
    func receive(_ action: AnyAction, exclusively: Bool = false) throws {
        try withUnsafePointer(to: action) { untyped in
            // NB: the payload is opened: it travels as its own type, as a typed action's does.
            func open<Payload: Sendable>(_ payload: Payload) throws {
                try receive(
                    action.name, payload: payload, error: action.error, untyped: untyped, exclusively: exclusively)
            }
            let payload = action.payload
            try open(payload)
        }
    }

    /// Admits an action named `name` from this thread, under the lock: records where it goes (``Admission``), and,
    /// when it runs now, what it runs through.
    ///
    /// - Parameter queued: Makes the queued form of the action, with its cause and the task that waits with it.
    func admit(
        _ name: String, exclusively: Bool, queueing queued: (StepCause, TrackedTask?) -> QueuedAction
    ) -> Admitted {
        let thread = ThreadID.current
        return state.withLockWaiting { state -> Admitted? in
            let decision = admit(.action(exclusively: exclusively), from: thread, in: &state) { byHolder in
                // NB: the holder's own code queues behind its step; others wait with their task's cause. One
                // expression: a closure of statements was not inlined, and its context retained the dispatcher,
                // a weakly referenced object whose counts take a slow path (W1: 1,879 instructions, not 1,438).
                byHolder ? queued(steps.causeOfQueued ?? causeOfCurrentTask, nil) : queuedByItsTask(queued)
            }
            guard let decision else { return nil }
            guard decision == .run else { return .decided(decision) }
            return .runs(state.index.list(for: name), through: state.middleware.passage)
        }
    }

    /// Runs `body` holding the dispatch turn, so that no action runs meanwhile, then the actions it queued.
    func withTurn<Value>(_ body: () throws -> Value) rethrows -> Value {
        let thread = ThreadID.current
        let decision = state.withLockWaiting { admit(.read, from: thread, in: &$0, queueing: Self.neverQueued) }
        // NB: this thread holds the turn already, or the holder waits for this thread's factory.
        guard decision == .run else { return try body() }
        defer {
            state.withLock { $0.turn.holderIsBetweenActions = false }
            drainQueueAndEndTurn()
        }
        return try body()
    }

    /// Whether the calling thread holds the dispatch turn; read without the lock, as only the
    /// holder names itself there, and only it clears its name.
    func holdsTurn(_ thread: ThreadID = .current) -> Bool {
        turnHolder.names(thread)
    }

    /// Runs the queued actions in order, then gives up the dispatch turn.
    ///
    /// The effects the steps committed start before the turn is given up, in order, once nothing is queued
    /// (see `EffectStarts`).
    func drainQueueAndEndTurn() {
        // NB: most often nothing was queued and nobody waits for a drain: the turn just ends.
        guard !transaction.effects.committed.isEmpty else {
            let ended = state.withLock { state in
                guard state.turn.endIfIdle() else { return false }
                self.state.broadcast()
                return true
            }
            if !ended { drainStartingEffects() }
            return
        }
        // NB: the step queued work behind it: the effects' work waits until that has run.
        guard !transaction.effects.defersStarts else { return drainStartingEffects() }
        var started = startCommittedEffects()
        let ended = state.withLock { state in
            started.attach(in: &state.tasks)
            guard state.turn.endIfIdle() else { return false }
            self.state.broadcast()
            return true
        }
        started.finish()
        if !ended { drainStartingEffects() }
    }

    /// Runs the queued actions in order; once none is left, starts the tasks the steps tracked meanwhile,
    /// in order, then gives up the dispatch turn (unless more was queued meanwhile: it runs first). Each lock
    /// attaches the tasks started before it.
    private func drainStartingEffects() {
        /// What the holder does next, as decided under the lock.
        enum Next {
            case perform(QueuedAction)
            case start(through: (any TaskStarter)?)
            case end
        }
        deferCommittedEffects()
        var started = StartedEffects()
        var waiters: [CheckedContinuation<Void, Never>] = []
        while true {
            let next = state.withLock { state -> Next in
                if !started.isEmpty { started.attach(in: &state.tasks) }
                if let action = state.turn.popQueued() { return .perform(action) }
                if !transaction.effects.awaiting.isEmpty || !transaction.effects.awaitingGates.isEmpty {
                    return .start(through: prepareAwaitingStarts(in: &state))
                }
                transaction.effects.defersStarts = false
                state.tasks.forgetRecent()
                state.turn.end(resuming: &waiters)
                self.state.broadcast()
                return .end
            }
            if !started.isEmpty { started.finish() }
            switch next {
            case .perform(let action):
                do {
                    try action.perform(on: self)
                } catch {
                    report(error, of: action.action)
                }
                deferCommittedEffects()
            case .start(let starter):
                started = startAwaitingTasks(through: starter)
            case .end:
                for waiter in waiters { waiter.resume() }
                return
            }
        }
    }

    /// The most turns that ended while one thread waited in line for the turn, so far (see `TurnLine`, which
    /// bounds it): for the benchmark and the tests.
    package var longestTurnWait: Int {
        state.withLock { $0.turn.line.longestWait }
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
        if runsQueue { drainQueueAndEndTurn() }
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
    /// that work dispatches or starts in turn. Called from such a task (or its
    /// child tasks, or a plain `Task` it started), it waits for every other
    /// task, not for that task while it runs; a plain `Task` whose task has
    /// ended waits for every task still running. It does not wait for plain
    /// `Task`s, which the dispatcher does not track. It returns
    /// early when the calling task is cancelled, so that a time limit ends a
    /// test waiting here.
    public func waitUntilDrained() async {
        await waitUntilDrained(untilCancelled: true)
    }

    /// Returns once nothing runs or waits; with `untilCancelled`, also once the calling task is cancelled.
    func waitUntilDrained(untilCancelled: Bool) async {
        let id = state.withLock { $0.turn.drainWaiterID() }
        // NB: a tracked task of this dispatcher waits for the others, not for itself; nor does a plain `Task` it
        // started, while it runs (the plain task inherited its task-local value, and with it, its identity).
        let task = currentTask
        let wait = {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if !self.state.withLock({ $0.turn.addDrainWaiter(continuation, id: id, belongingTo: task) }) {
                    continuation.resume()
                }
            }
        }
        guard untilCancelled else { return await wait() }
        await withTaskCancellationHandler {
            await wait()
        } onCancel: {
            state.withLock { $0.turn.cancelDrainWaiter(id) }?.resume()
        }
    }
}

/// What an action's admission returns from under the lock: the decision, or, to run now, what it runs through.
enum Admitted {
    case decided(Admission.Decision)
    case runs(RouteList, through: MiddlewareChain.Passage)
}
