extension Dispatcher {
    /// Runs a unit of work — a thunk — that dispatches and reads stores, and returns its result.
    ///
    /// ```swift
    /// try dispatcher.perform { dispatcher in
    ///     guard try dispatcher.store(SessionStore.self).state.isLoggedIn else { return }
    ///     try dispatcher.dispatch(.refresh)
    /// }
    /// ```
    ///
    /// The work runs now, on the calling thread, and `perform` returns when it
    /// has; its dispatches follow the usual rules (from a handler or an
    /// observer, they are queued). For asynchronous work, see ``dispatchTask(priority:_:)``.
    @discardableResult
    public func perform<Value>(_ work: (Dispatcher) throws -> Value) rethrows -> Value {
        try work(self)
    }

    /// Starts asynchronous work — an async action creator — in a new task, and returns the task.
    ///
    /// Report success and failure on one action name, with a payload or an
    /// error, dispatched exactly once:
    ///
    /// ```swift
    /// let task = dispatcher.dispatchTask { dispatcher in
    ///     let result: Result<[Todo], any Error>
    ///     do {
    ///         result = .success(try await api.fetchTodos())
    ///     } catch {
    ///         result = .failure(error)  // the request's error, and nothing else
    ///     }
    ///     try dispatcher.dispatch(.todosLoaded, result: result)  // exactly once
    /// }
    /// task.cancel()  // to give up
    /// ```
    ///
    /// Keep the dispatch out of the `do`: an error a handler throws (which
    /// rolls the action back) then ends the task, instead of being caught and
    /// dispatched as a second, failed `todosLoaded`.
    ///
    /// The dispatcher tracks the task until it ends: ``waitUntilDrained()``
    /// waits for it, and ``cancelAllTasks()`` cancels it. Once it is
    /// cancelled, its dispatches throw `CancellationError` instead of
    /// dispatching; see ``dispatchTask(id:cancelInFlight:priority:_:)``. A plain
    /// `Task` the work starts is not tracked, but belongs to the task: its
    /// dispatches are the task's, and its ``waitUntilDrained()`` does not wait
    /// for the task while it runs (see <doc:WorkingWithEffects>).
    ///
    /// - Returns: The task; its value is the work's result, its error what the work threw.
    @discardableResult
    public func dispatchTask<Value: Sendable>(
        priority: TaskPriority? = nil,
        _ work: @escaping @Sendable (Dispatcher) async throws -> Value
    ) -> Task<Value, any Error> {
        scheduleTask(id: nil, cancellingInFlight: false, priority: priority, work)
    }

    /// Starts asynchronous work under an id, so that it can be cancelled by that id.
    ///
    /// ```swift
    /// dispatcher.dispatchTask(id: "search", cancelInFlight: true) { dispatcher in
    ///     let results = try await api.search(query)
    ///     try dispatcher.dispatch(.searchFinished, payload: results)
    /// }
    /// dispatcher.cancelTasks(id: "search")  // on log-out, say
    /// ```
    ///
    /// With `cancelInFlight`, the tasks already running under `id` are
    /// cancelled first, as a search field wants for each keystroke.
    ///
    /// Cancelling the task through the dispatcher — with ``cancelTasks(id:)``,
    /// ``cancelAllTasks()``, `cancelInFlight`, ``Effects/cancel(id:)`` or
    /// ``shutdown()``, from any thread — reaches it in whatever state it is:
    /// started from a step, it never runs its work if the cancellation comes
    /// before that work began (the step has not committed yet, or the dispatch
    /// that ran it has more queued). Once running, it is cancelled as Swift does
    /// (`Task.isCancelled`, `CancellationError` from cancellable awaits), and
    /// more: from the moment the cancelling call returns, every
    /// ``dispatch(_:payload:error:)`` the task's work makes throws
    /// `CancellationError` and dispatches nothing. (A dispatch that had
    /// already started runs to its end.) Cancelling the returned `Task`
    /// yourself is Swift's cancellation alone. The task stays tracked until
    /// its work returns.
    ///
    /// - Returns: The task; its value is the work's result, its error what the work threw.
    @discardableResult
    public func dispatchTask<ID: Hashable & Sendable, Value: Sendable>(
        id: ID,
        cancelInFlight: Bool = false,
        priority: TaskPriority? = nil,
        _ work: @escaping @Sendable (Dispatcher) async throws -> Value
    ) -> Task<Value, any Error> {
        scheduleTask(id: TaskKey(id), cancellingInFlight: cancelInFlight, priority: priority, work)
    }

    /// Cancels the tasks under `id` — effects and tasks started with ``dispatchTask(id:cancelInFlight:priority:_:)`` —
    /// whatever state each is in, from any thread.
    ///
    /// ```swift
    /// dispatcher.cancelTasks(id: "import")  // from a view, another thread, a handler or an observer
    /// ```
    ///
    /// It reaches every task under `id` that was asked for before it: one a
    /// step is asking for right now (on another thread, say) never runs its
    /// work once that step commits; one tracked whose work has not begun
    /// never runs it either, and ends cancelled (a journal says so); one
    /// running is cancelled as Swift cancels tasks. When this returns, none
    /// of those tasks dispatches any more: their dispatches still held or
    /// waiting are refused when they would run, even once the tasks have
    /// ended, and so are those of the plain `Task`s they started. A task
    /// asked for after it returns is not reached.
    ///
    /// Called from inside a step, it acts at once, as ``Effects/cancel(id:)``
    /// does at the step's commit; the one difference is that `effects.cancel(id:)`
    /// belongs to the step — it acts only if the step commits, and the journal
    /// lists it among the step's effects — where `cancelTasks(id:)` acts even if the step then rolls back.
    public func cancelTasks(id: some Hashable & Sendable) {
        cancelTasks(TaskKey(id))
    }

    /// Cancels the tasks under `id`, every task for `nil`, in every state (see `TaskRegistry`).
    private func cancelTasks(_ id: TaskKey?) {
        let cancellations = state.withLock { state in
            hasCancelledTasks.set(true)
            // NB: while a turn is held, its running step may have asked for tasks its commit will register: the
            // commit checks them against this cancellation. Without a turn, no task waits for a commit.
            let isTurnHeld = state.turn.holder != nil
            if !isTurnHeld { state.tasks.forgetRecent() }
            defer { taskCancellations.store(state.tasks.cancellations) }
            let handles = state.tasks.cancel(id, recording: isTurnHeld)
            // NB: a task that ended may have left dispatches held or waiting: they are refused when they would run.
            state.reachTasksOfWaitingDispatches(by: id)
            return handles
        }
        for cancellation in cancellations { cancellation.cancel() }
    }

    /// Cancels every task — effects and tasks started with `dispatchTask` — whatever state each is in, from any
    /// thread; when this returns, none of them dispatches any more. See ``cancelTasks(id:)``.
    public func cancelAllTasks() {
        cancelTasks(nil)
    }

    /// How many tasks started with `dispatchTask` (or as effects) are running; not the plain `Task`s they start.
    public var runningTaskCount: Int {
        state.withLock { $0.tasks.count }
    }

    /// Dispatches the outcome of some work on one action name: the value as the
    /// payload on success, or `nil` and the error on failure.
    ///
    /// ```swift
    /// extension ActionName where Payload == [Todo]? {
    ///     static var todosLoaded: Self { "todosLoaded" }
    /// }
    /// // In the handler: `if let error = action.error { … } else if let todos = action.payload { … }`
    /// ```
    public func dispatch<Value>(_ name: ActionName<Value?>, result: Result<Value, any Error>) throws {
        switch result {
        case .success(let value): try dispatch(name, payload: value)
        case .failure(let error): try dispatch(name, payload: nil, error: error)
        }
    }
}
