// Admission, carried out: under the lock, the dispatcher reads the facts `Admission.decide` needs and
// records its decision (a queued, held or waiting action is stored; `run` takes the turn). What runs
// then runs unlocked, in `Dispatcher+Turn.swift`.
extension Dispatcher {
    /// Decides what `arrival`, from `thread`, does, and records the decision in `state`; `nil` means: wait
    /// for the turn, and ask again.
    ///
    /// - Parameter queueing: Makes the queued form of an action: its argument says whether `thread` acts
    ///   for the holder (its code queues behind its step), rather than waiting with its task's cause.
    @inline(__always)
    func admit(
        _ arrival: Admission.Arrival, from thread: ThreadID, in state: inout DispatcherState,
        queueing: (_ byHolder: Bool) -> QueuedAction
    ) -> Admission.Decision? {
        let facts = facts(about: thread, in: state)
        let decision = Admission.decide(arrival, facts)
        switch decision {
        case .queueBehindStep:
            // NB: by the holder's code, or a factory it waits for: the effects its step committed start after it.
            transaction.effects.defersStarts = true
            state.turn.queueBehindHolder(queueing(true))
        case .waitForRelease: state.turn.waitForRelease(queueing(facts.actsForHolder))
        case .holdForPresent: state.turn.hold(queueing(false))
        case .run:
            _ = state.turn.take(by: thread)  // NB: the turn is free, or handed to this thread: the decision says so
            if arrival == .read { state.turn.holderIsBetweenActions = true }
            return decision
        case .waitForTurn:
            state.turn.waitInLine(thread)
            return nil
        case .joinTransaction, .runInsideTurn, .startOnCommit, .startNow, .refuse: break
        }
        // NB: a thread that waited in line and now goes elsewhere (its action queued, say) leaves it; the
        // others look again, as the turn may be free for them now.
        if state.turn.leaveLine(thread) { self.state.broadcast() }
        return decision
    }

    /// What `Admission` needs to know of an action, batch, read or move from `thread`, read under the lock.
    @inline(__always)
    private func facts(about thread: ThreadID, in state: DispatcherState) -> Admission.Facts {
        var facts = Admission.Facts()
        // NB: the turn holder alone touches the transaction; this thread holds the turn when it matches.
        facts.holdsOpenTransaction = state.turn.holder == thread && transaction.isOpen
        facts.actsForHolder = state.admits(thread)
        facts.holderIsBetweenActions = state.turn.holderIsBetweenActions
        facts.isSuspended = state.turn.isSuspended
        facts.isTurnFree = state.turn.isFree(for: thread)
        facts.refusedCaller = state.refusal(ofCallerOf: ObjectIdentifier(self))
        // NB: the task-local value is read only while a journal shows the past.
        facts.isTaskWhilePastIsShown = state.turn.holdsTaskDispatches && currentTask != nil
        return facts
    }

    /// What `arrival` from this thread would be decided now, without recording anything: a move asks
    /// before it sets to work.
    func admission(of arrival: Admission.Arrival) -> Admission.Decision {
        let thread = ThreadID.current
        return state.withLock { Admission.decide(arrival, facts(about: thread, in: $0)) }
    }

    /// The `queueing` of a batch, a read or a move, which are never queued.
    static func neverQueued(_: Bool) -> QueuedAction {
        preconditionFailure("a batch, a read or a move is never queued")
    }

    /// The error to throw for `action`, an action or a batch refused: from a task cancelled through the
    /// dispatcher (reported to `onTaskError` too, and recorded by a journal), or once the dispatcher shuts down.
    func refusal(of action: @autoclosure () -> AnyAction, named name: String) -> any Error {
        let reason = state.withLock { $0.refusal(ofCallerOf: ObjectIdentifier(self)) }
        guard reason != .shutDown else { return FluxionError.dispatcherShutDown(action: name) }
        report(TaskError(.refused, taskID: currentTask?.id?.value, action: name, error: CancellationError()))
        recordRefusal(of: action(), error: CancellationError(), reason: .taskCancelled, cause: causeOfCurrentTask)
        return CancellationError()
    }
}
