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
    /// Report success and failure on one action name, with a payload or an error:
    ///
    /// ```swift
    /// let task = dispatcher.dispatchTask { dispatcher in
    ///     do {
    ///         try dispatcher.dispatch(.todosLoaded, result: .success(try await api.fetchTodos()))
    ///     } catch {
    ///         try dispatcher.dispatch(.todosLoaded, result: .failure(error))
    ///     }
    /// }
    /// task.cancel()  // to give up
    /// ```
    ///
    /// - Returns: The task; its value is the work's result, its error what the work threw.
    @discardableResult
    public func dispatchTask<Value: Sendable>(
        priority: TaskPriority? = nil,
        _ work: @escaping @Sendable (Dispatcher) async throws -> Value
    ) -> Task<Value, any Error> {
        Task(priority: priority) { try await work(self) }
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
