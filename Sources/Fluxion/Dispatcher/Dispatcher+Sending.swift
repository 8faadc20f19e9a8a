// Dispatching without throwing: the spelling for code whose dispatches are queued — an observer, a middleware,
// a handler — and for code that has nothing to do with an error but report it.
extension Dispatcher {
    /// Dispatches a typed action without throwing: an error it meets goes to ``onQueuedError``.
    ///
    /// ```swift
    /// session.observe(owner: self) { _, change in
    ///     if change.newState.user == nil { dispatcher.send(.clearCache) }
    /// }
    /// ```
    ///
    /// The spelling for an observer, a middleware, a handler or a store
    /// factory. A dispatch from the thread that runs an action is queued and
    /// returns at once, so it never throws (see <doc:ThreadingAndReentrancy>);
    /// `send` says so at the call site, with no `try?` that reads as if an
    /// error were swallowed. The queued action's errors go to
    /// ``onQueuedError`` (or standard error), as a queued `dispatch`'s do.
    ///
    /// From anywhere else (a button, another thread, a task) it dispatches at
    /// once, as ``dispatch(_:payload:error:)`` does, and hands the error that
    /// `dispatch` would throw — a handler's, a refusal such as
    /// ``FluxionError/dispatcherShutDown(action:)`` — to ``onQueuedError``
    /// instead. Use `dispatch` where the caller must know that its action failed.
    ///
    /// - Parameters:
    ///   - name: The action name; it fixes the payload type.
    ///   - payload: The value to carry.
    ///   - error: An error to carry, for actions that report a failure.
    public func send<Payload>(_ name: ActionName<Payload>, payload: Payload, error: (any Error)? = nil) {
        do {
            try receive(name.rawValue, payload: payload, error: error)
        } catch let failure {
            reportSent(failure, of: AnyAction(name: name.rawValue, payload: payload, error: error))
        }
    }

    /// Dispatches a typed action without a payload, without throwing; see ``send(_:payload:error:)``.
    ///
    /// ```swift
    /// dispatcher.send(.refresh)
    /// ```
    public func send(_ name: ActionName<Void>, error: (any Error)? = nil) {
        send(name, payload: (), error: error)
    }

    /// Dispatches an action by raw name without throwing; see ``send(_:payload:error:)``.
    ///
    /// ```swift
    /// dispatcher.send(AnyAction(name: "addTodo", payload: "Buy milk"))
    /// ```
    public func send(_ action: AnyAction) {
        do {
            try receive(action)
        } catch {
            reportSent(error, of: action)
        }
    }

    /// Hands what a sent action met to ``onQueuedError``, but for the refusal of a cancelled task's dispatch,
    /// which ``onTaskError`` heard of already.
    private func reportSent(_ error: any Error, of action: AnyAction) {
        if error is CancellationError, let task = currentTask, isCancelled(task) { return }
        report(error, of: action)
    }
}
