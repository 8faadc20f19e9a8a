// The end of a dispatcher's life: what an app calls before it lets go of one whose tasks may still run.
extension Dispatcher {
    /// Ends the dispatcher's work, so that letting go of it frees it: cancels every task, waits until
    /// they have ended, then writes what persistence and the journal's file have pending, and releases
    /// the storages its stores persist to.
    ///
    /// ```swift
    /// await session.dispatcher.shutdown()  // on log-out, before the session is let go
    /// ```
    ///
    /// A dispatcher lives as long as something refers to it, and its running
    /// tasks do: each effect and each `dispatchTask` work is given the
    /// dispatcher. An effect that never ends on its own — a poll, a socket
    /// reader — would keep the dispatcher and every store alive after the app
    /// let go of it. Once `shutdown()` returns, no task of the dispatcher runs,
    /// and nothing of it outlives the app's last reference (a ``Journal``
    /// refers to its dispatcher too: let go of it, or ``Journal/stop()`` it).
    ///
    /// Once the pending states are written, the storages' locations are
    /// released: another dispatcher, here or in another process, may then
    /// register stores on them (see <doc:PersistingState#One-live-dispatcher-per-location>).
    ///
    /// The dispatcher still works afterwards: a dispatch runs, and a task
    /// started later runs too — call `shutdown()` again before letting go.
    /// Its stores are in memory only then: a later change is not saved but
    /// reported as ``PersistenceError/locationReleased(key:location:)``.
    public func shutdown() async {
        cancelAllTasks()
        await waitUntilDrained()
        await waitUntilFlushed()
        persistenceCenter.releaseLocations()
        let recorder = state.withLock { $0.middleware.passage.recorder }
        recorder?.writer?.flush()
    }
}
