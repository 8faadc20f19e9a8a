// The end of a dispatcher's life: what an app calls before it lets go of one whose tasks may still run.
extension Dispatcher {
    /// Ends the dispatcher's work for good, so that letting go of it frees it: refuses new work, cancels
    /// every task, waits until nothing of the dispatcher runs, then writes what persistence and the
    /// journal's file have pending, and releases the storages its stores persist to.
    ///
    /// ```swift
    /// await session.dispatcher.shutdown()  // on log-out, before the session is let go
    /// ```
    ///
    /// A dispatcher lives as long as something refers to it, and its running
    /// tasks do: each effect and each `dispatchTask` work is given the
    /// dispatcher. An effect that never ends on its own — a poll, a socket
    /// reader — would keep the dispatcher and every store alive after the app
    /// let go of it. `shutdown()` ends them all, in this order:
    ///
    /// 1. From its first moment, a dispatch or a batch from outside the running
    ///    turn throws ``FluxionError/dispatcherShutDown(action:)``, and every
    ///    task asked for from then on — an effect, a `dispatchTask` — ends
    ///    cancelled without running its work.
    /// 2. Every task is cancelled, in whatever state it is (see
    ///    ``cancelTasks(id:)``), those an action in flight on another thread
    ///    commits afterwards too: the action and what it queued run to their end,
    ///    and their effects never run their work.
    /// 3. It waits until no action runs, none waits for a suspension to end,
    ///    and no task runs or still holds the dispatcher (its caller's
    ///    cancellation does not cut this short).
    /// 4. It writes what persistence and the journal's file have pending: a step
    ///    a journal recorded is in its file when `shutdown()` returns.
    /// 5. It releases the storages' locations: another dispatcher, here or in
    ///    another process, may then register stores on them (see
    ///    <doc:PersistingState#One-live-dispatcher-per-location>).
    ///
    /// Once it returns, no task of the dispatcher runs, and nothing of it
    /// outlives the app's last reference: let go of the dispatcher, and it and
    /// its stores are freed at once (a ``Journal`` refers to its dispatcher
    /// too: let go of it, or ``Journal/stop()`` it). Reading stores still
    /// works; dispatching does not: make a new dispatcher to go on.
    public func shutdown() async {
        beginShutdown()
        await waitUntilDrained(untilCancelled: false)
        await taskHolds.waitUntilNone()
        await waitUntilFlushed()
        persistenceCenter.releaseLocations()
        let recorder = state.withLock { $0.middleware.passage.recorder }
        recorder?.writer?.flush()
    }

    /// Refuses new work, and cancels every task, those asked for from now on too: what ``shutdown()`` does
    /// first, at once. The model's harness calls it to let an action in flight go on once shutdown has begun.
    package func beginShutdown() {
        let cancellations = state.withLock { state in
            hasCancelledTasks.set(true)
            defer { taskCancellations.store(state.tasks.cancellations) }
            let handles = state.tasks.close()
            state.reachTasksOfWaitingDispatches(by: nil)
            return handles
        }
        for cancellation in cancellations { cancellation.cancel() }
    }
}
