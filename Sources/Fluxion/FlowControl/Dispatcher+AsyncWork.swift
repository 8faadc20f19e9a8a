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
    /// ``cancelAllTasks()`` or `cancelInFlight` — cancels it as Swift does
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

    /// Cancels the tasks started with ``dispatchTask(id:cancelInFlight:priority:_:)`` under `id`.
    ///
    /// When this returns, none of those tasks dispatches any more: their dispatches still held or
    /// waiting are refused when they would run, even once the tasks have ended, and so are those of
    /// the plain `Task`s they started. A task under `id` whose start is still queued behind the running
    /// step (an effect, or `dispatchTask` from an observer) is cancelled too, and never runs its work.
    public func cancelTasks(id: some Hashable & Sendable) {
        let key = TaskKey(id)
        cancelTasks { $0 == key }
    }

    /// Cancels the tasks `matches` picks by id, running and queued to start: with those the running step's
    /// handlers, observers or middleware asked for, when the caller runs that step.
    private func cancelTasks(where matches: (TaskKey?) -> Bool) {
        // NB: the transaction is read only by the thread holding the turn.
        let unqueued = holdsTurn() ? transaction.queuedStarts : []
        let cancellations = state.withLock { state in
            hasCancelledTasks.set(true)
            for task in unqueued where matches(task.id) { task.isCancelledItself = true }
            defer { taskCancellations.store(state.tasks.cancellations) }
            return state.tasks.cancel(where: matches)
        }
        for cancellation in cancellations { cancellation.cancel() }
    }

    /// Cancels every task started with `dispatchTask`; when this returns, none of them dispatches any more.
    public func cancelAllTasks() {
        cancelTasks { _ in true }
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
