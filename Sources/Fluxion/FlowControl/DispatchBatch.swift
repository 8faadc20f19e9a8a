/// Dispatches the actions of one batch; see ``Dispatcher/batch(_:)``.
///
/// Valid only inside the batch's closure, on its thread.
public struct DispatchBatch {
    let dispatcher: Dispatcher

    /// Runs a typed action now, as part of the batch.
    ///
    /// - Throws: What ``Dispatcher/dispatch(_:payload:error:)`` throws; any
    ///   error also makes the whole batch roll back, even if you catch it.
    public func dispatch<Payload>(_ name: ActionName<Payload>, payload: Payload, error: (any Error)? = nil) throws {
        try dispatcher.performInBatch(name.rawValue) {
            AnyAction(name: name.rawValue, payload: payload, error: error)
        } perform: { routes, storesExist in
            try dispatcher.perform(
                name.rawValue, payload: payload, error: error, through: routes, storesExist: storesExist)
        }
    }

    /// Runs a typed action without a payload now, as part of the batch.
    public func dispatch(_ name: ActionName<Void>, error: (any Error)? = nil) throws {
        try dispatch(name, payload: (), error: error)
    }

    /// Runs an untyped action now, as part of the batch.
    public func dispatch(_ action: AnyAction) throws {
        try dispatcher.performInBatch(action.name) {
            action
        } perform: { routes, storesExist in
            try dispatcher.perform(action, through: routes, storesExist: storesExist)
        }
    }
}

extension Dispatcher {
    /// Runs several actions as one unit: observers hear one change per store, or, on failure, nothing.
    ///
    /// ```swift
    /// try dispatcher.batch { batch in
    ///     try batch.dispatch(.clearCompleted)
    ///     try batch.dispatch(.addTodo, payload: "Buy milk")
    /// }
    /// ```
    ///
    /// The actions run at once, in order, holding the dispatch turn from the
    /// first to the last. When the closure returns, each store whose handlers
    /// ran sends its observers one ``StoreChange`` from its state before the
    /// batch to its state after, with an action named ``AnyAction/batchName``
    /// whose payload is the batch's actions. If a handler throws, or the
    /// closure throws, every store the batch touched goes back to its state
    /// before the batch, no observer is called, and `batch` throws the first
    /// error. Throwing from the closure is how to abort.
    ///
    /// A batch inside a batch folds into it (its failure fails the outer
    /// batch). Actions dispatched with ``dispatch(_:payload:error:)`` from
    /// inside the batch — by its closure, handlers or middleware — are queued
    /// and run after it, whether it succeeded or rolled back. Readers of
    /// ``Store/state`` on other threads may see a store's state between two
    /// actions of a batch; observers never do, and observation tracking is
    /// told once, after the batch (after a rollback too, so that a reader
    /// that saw a state of the batch reads again). A batch runs even while the
    /// dispatcher is suspended.
    ///
    /// - Throws: The batch's first error; ``FluxionError/batchInsideAction``
    ///   when called while an action runs: from a handler, an observer, a
    ///   middleware or a hook.
    /// - Returns: What the closure returns.
    @discardableResult
    public func batch<Value>(_ body: (DispatchBatch) throws -> Value) throws -> Value {
        try runBatch(body)
    }
}
