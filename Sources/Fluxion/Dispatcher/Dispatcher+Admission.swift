// Admission: what an action, a batch or a read does when it arrives, decided in one place, under the
// lock. Every entry point asks `admit(_:from:in:queueing:)`; none works out "do I hold the turn?" alone.
extension Dispatcher {
    /// What arrives at the dispatcher.
    enum Arrival {
        /// An action named `name`; `exclusively` runs it even while the dispatcher is suspended.
        case action(String, exclusively: Bool)
        /// A batch: it runs even while the dispatcher is suspended.
        case batch
        /// A ``read(_:)``: it holds the turn between two actions.
        case read
    }

    /// Where an arrival goes.
    enum Admission {
        /// It comes from a task cancelled through the dispatcher: it is refused.
        case refused
        /// The turn holder dispatched inside its transaction: the action becomes part of it.
        case joinsTransaction
        /// The action waits in a queue: behind the running one, for the suspensions to end, or,
        /// while a journal shows the past, for the present.
        case queued
        /// The caller took the turn: it runs the action through `passage`, then through `list`, now.
        case runs(RouteList, through: MiddlewareChain.Passage)
        /// The caller took the turn, for a batch or a read.
        case takesTurn
        /// The caller holds the turn already, or runs a factory its holder waits for: a batch or a
        /// read runs inside what runs now.
        case isInsideTurn
    }

    /// Decides what `arrival`, from `thread`, does; `nil` means: wait for the turn, and ask again.
    ///
    /// - Parameter queueing: Makes the queued form of an action: its argument says whether `thread`
    ///   acts for the holder (its code queues behind its step) rather than waiting for the turn.
    func admit(
        _ arrival: Arrival, from thread: ThreadID, in state: inout DispatcherState,
        queueing: (_ byHolder: Bool) -> QueuedAction
    ) -> Admission? {
        switch arrival {
        case .read:
            if state.admits(thread) { return .isInsideTurn }
            guard state.turn.take(by: thread) else { return nil }
            state.turn.holderIsBetweenActions = true
            return .takesTurn
        case .batch:
            if state.admits(thread) { return .isInsideTurn }
            if state.isInCancelledTask(of: ObjectIdentifier(self)) { return .refused }
            return state.turn.take(by: thread) ? .takesTurn : nil
        case .action(let name, let exclusively):
            // NB: the turn holder alone touches the transaction; this thread holds the turn when it matches.
            if state.turn.holder == thread, transaction.isOpen { return .joinsTransaction }
            // NB: a dispatch already under way finishes, with what its handlers and observers queue, even if its
            // task was cancelled meanwhile: only a new arrival of a cancelled task is refused.
            if !state.admits(thread), state.isInCancelledTask(of: ObjectIdentifier(self)) { return .refused }
            // NB: while a journal shows the past, tasks' dispatches wait for the present, in order.
            if state.turn.holdsTaskDispatches, currentTask != nil {
                state.turn.hold(queueing(false))
                return .queued
            }
            let isCreatingForHolder = state.isCreatingForHolder(thread)
            switch state.turn.arrive(
                thread, isCreatingForHolder: isCreatingForHolder, exclusively: exclusively, action: queueing)
            {
            case nil: return nil  // NB: another thread holds the turn
            case .queued?: return .queued
            case .run?: return .runs(state.index.list(for: name), through: state.middleware.passage)
            }
        }
    }

    /// The `queueing` of a batch or a read, which are never queued.
    static func neverQueued(_: Bool) -> QueuedAction {
        preconditionFailure("a batch or a read is never queued")
    }

    /// Reports that `name`, an action or a batch from a task cancelled through the dispatcher, was
    /// refused; returns the error to throw.
    func refusal(of name: String) -> CancellationError {
        report(TaskError(.refused, taskID: currentTask?.id?.value, action: name, error: CancellationError()))
        return CancellationError()
    }
}
