extension Dispatcher {
    /// Runs a unit of work — a thunk — that dispatches and reads stores, and returns its result.
    ///
    /// ```swift
    /// try dispatcher.dispatch { dispatcher in
    ///     guard try dispatcher.store(SessionStore.self).state.isLoggedIn else { return }
    ///     try dispatcher.dispatch(.refresh)
    /// }
    /// ```
    ///
    /// The work runs on the calling thread; its dispatches follow the usual
    /// rules (from a handler or an observer, they are queued).
    @discardableResult
    public func dispatch<Value>(_ work: (Dispatcher) throws -> Value) rethrows -> Value {
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
    /// dispatching; see ``dispatchTask(id:cancelInFlight:priority:_:)``.
    ///
    /// - Returns: The task; its value is the work's result, its error what the work threw.
    @discardableResult
    public func dispatchTask<Value: Sendable>(
        priority: TaskPriority? = nil,
        _ work: @escaping @Sendable (Dispatcher) async throws -> Value
    ) -> Task<Value, any Error> {
        startTask(id: nil, cancellingInFlight: false, priority: priority, work)
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
        startTask(id: TaskKey(id), cancellingInFlight: cancelInFlight, priority: priority, work)
    }

    /// Cancels the tasks started with ``dispatchTask(id:cancelInFlight:priority:_:)`` under `id`.
    ///
    /// When this returns, none of those tasks dispatches any more.
    public func cancelTasks(id: some Hashable & Sendable) {
        let key = TaskKey(id)
        let cancellations = state.withLock { $0.tasks.cancel { $0 == key } }
        for cancel in cancellations { cancel() }
    }

    /// Cancels every task started with `dispatchTask`; when this returns, none of them dispatches any more.
    public func cancelAllTasks() {
        let cancellations = state.withLock { $0.tasks.cancel { _ in true } }
        for cancel in cancellations { cancel() }
    }

    /// How many tasks started with `dispatchTask` are running.
    public var runningTaskCount: Int {
        state.withLock { $0.tasks.count }
    }

    /// Starts a tracked task: registers it, runs `work` marked as its code, and forgets it when it ends.
    private func startTask<Value: Sendable>(
        id: TaskKey?,
        cancellingInFlight: Bool,
        priority: TaskPriority?,
        _ work: @escaping @Sendable (Dispatcher) async throws -> Value
    ) -> Task<Value, any Error> {
        let (token, cancellations, starter) = state.withLock { state in
            defer { state.turn.hasTasks = true }
            let (token, cancellations) = state.tasks.begin(id: id, cancellingInFlight: cancellingInFlight)
            return (token, cancellations, state.taskStarter)
        }
        for cancel in cancellations { cancel() }
        let tracked = TrackedTask(dispatcher: ObjectIdentifier(self), token: token, id: id)
        let operation: @Sendable () async throws -> Value = {
            defer { self.endTask(token) }
            do {
                return try await TrackedTask.$current.withValue(tracked) { try await work(self) }
            } catch {
                self.reportThrown(error, by: tracked)
                throw error
            }
        }
        let task = starter?.start(priority: priority, operation) ?? Task(priority: priority, operation: operation)
        // NB: a cancellation that came before the task existed is applied now.
        if state.withLock({ $0.tasks.attach({ task.cancel() }, to: token) }) { task.cancel() }
        return task
    }

    /// Reports what a task's work threw, unless it is the `CancellationError` of a cancelled task.
    private func reportThrown(_ error: any Error, by task: TrackedTask) {
        if error is CancellationError, Task.isCancelled || state.withLock({ $0.tasks.isCancelled(task.token) }) {
            return
        }
        report(TaskError(.threw, taskID: task.id?.value, action: nil, error: error))
    }

    /// Forgets an ended task, and resumes the drain waiters if nothing else runs.
    private func endTask(_ token: UInt64) {
        let (waiters, observers) = state.withLock { state in
            state.tasks.end(token)
            state.turn.hasTasks = state.tasks.count > 0
            return (state.turn.takeDrainWaitersIfDrained(), state.taskEndObservers)
        }
        for waiter in waiters { waiter.resume() }
        for observer in observers { observer() }
    }

    /// Calls `observer` after each task started with `dispatchTask` ends, on the task's thread.
    package func observeTaskEnds(_ observer: @escaping @Sendable () -> Void) {
        state.withLock { $0.taskEndObservers.append(observer) }
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
