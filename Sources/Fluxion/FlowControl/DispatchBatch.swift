/// Dispatches the actions and inline mutations of one batch; see ``Dispatcher/batch(_:)``.
///
/// Valid only inside the batch's closure, on its thread.
public struct DispatchBatch {
    @usableFromInline let dispatcher: Dispatcher

    /// Runs a typed action now, as part of the batch.
    ///
    /// - Throws: What ``Dispatcher/dispatch(_:payload:error:)`` throws; any
    ///   error also makes the whole batch roll back, even if you catch it.
    public func dispatch<Payload>(_ name: ActionName<Payload>, payload: Payload, error: (any Error)? = nil) throws {
        try dispatcher.forwardInBatch(name.rawValue, payload: payload, error: error, untyped: nil)
    }

    /// Runs a typed action without a payload now, as part of the batch.
    public func dispatch(_ name: ActionName<Void>, error: (any Error)? = nil) throws {
        try dispatch(name, payload: (), error: error)
    }

    /// Runs an untyped action now, as part of the batch.
    public func dispatch(_ action: AnyAction) throws {
        try withUnsafePointer(to: action) { untyped in
            // NB: the payload is opened: it travels as its own type, as a typed action's does.
            func open<Payload: Sendable>(_ payload: Payload) throws {
                try dispatcher.forwardInBatch(action.name, payload: payload, error: action.error, untyped: untyped)
            }
            let payload = action.payload
            try open(payload)
        }
    }

    /// Changes one store's state inline, as part of the batch.
    ///
    /// ```swift
    /// try dispatcher.batch { batch in
    ///     try batch.mutate(CounterStore.self) { $0.count = 10 }
    ///     try batch.dispatch(.increment, payload: 1)
    /// }
    /// ```
    ///
    /// The change travels as a built-in action named ``AnyAction/mutationName``
    /// whose payload is a ``StoreMutation``: the middleware sees it (and may
    /// drop it), and the store's observers hear it with the rest of the batch.
    /// No handler runs. If `body` throws, the whole batch rolls back.
    ///
    /// - Throws: ``FluxionError/storeNotRegistered(_:waitingStore:action:)``
    ///   for a type that is not registered, or what `body` throws.
    @inlinable
    public func mutate<State, S: Store<State>>(_ type: S.Type, _ body: @escaping @Sendable (inout State) throws -> Void)
        throws
    {
        let mutation = StoreMutation(of: S.self) { store in
            unsafeDowncast(store, to: Store<State>.self).apply(body)
        }
        try dispatch(AnyAction(name: AnyAction.mutationName, payload: mutation))
    }
}

extension Dispatcher {
    /// Runs several actions as one transaction: observers hear one change per store, or, on failure, nothing.
    ///
    /// ```swift
    /// try dispatcher.batch { batch in
    ///     try batch.dispatch(.clearCompleted)
    ///     try batch.dispatch(.addTodo, payload: "Buy milk")
    /// }
    /// ```
    ///
    /// The actions (and inline mutations, ``DispatchBatch/mutate(_:_:)``) run
    /// at once, in order, holding the dispatch turn from the first to the
    /// last. When the closure returns, the batch commits: each store it changed
    /// sends its observers one ``StoreChange`` from its state before the batch
    /// to its state after, stores in registration order, with an action named
    /// ``AnyAction/batchName`` whose payload is the batch's actions, as they
    /// reached the stores (after the middleware, which may change or drop them). If a
    /// handler throws, or the closure throws, every store the batch touched
    /// keeps its state from before the batch, no observer is called, the
    /// actions dispatched during the batch are dropped, and `batch` throws the
    /// first error. Throwing from the closure is how to abort.
    ///
    /// No reader on another thread sees a state of the middle of a batch:
    /// the batch's states become visible when it commits. Inside the batch,
    /// its own thread reads them as they are so far.
    ///
    /// A batch started by the batch's closure folds into it (its failure
    /// fails the outer batch); one started by the batch's actions — their
    /// middleware, handlers or hooks — is refused. Actions dispatched with ``dispatch(_:payload:error:)`` from
    /// inside the batch — by its closure, handlers or middleware — are queued
    /// and run after it commits. A batch runs even while the dispatcher is suspended.
    ///
    /// - Throws: The batch's first error; ``FluxionError/batchInsideAction``
    ///   when called while an action runs: from a handler, an observer, a
    ///   middleware or a hook.
    /// - Returns: What the closure returns.
    @discardableResult
    public func batch<Value>(_ body: (DispatchBatch) throws -> Value) throws -> Value {
        try batch(deliveredAs: AnyAction.batchName, body)
    }

    /// Runs a batch whose observers hear an action named `name`: a journal's travel is one.
    func batch<Value>(
        deliveredAs name: String, beforeQueuedActions: () -> Void = {}, _ body: (DispatchBatch) throws -> Value
    ) throws -> Value {
        let thread = ThreadID.current
        let decision = state.withLockWaiting { admit(.batch, from: thread, in: &$0, queueing: Self.neverQueued) }
        switch decision {
        case .refuse:
            throw refusal(of: AnyAction(name: name, payload: [AnyAction]()), named: name)
        case .runInsideTurn:
            // NB: this thread runs an action or a batch: a batch folds into a running batch,
            // between its actions, never inside a handler.
            guard holdsTurn(thread), transaction.isBatch, !transaction.isRunningBatchAction else {
                throw FluxionError.batchInsideAction
            }
            do {
                return try body(DispatchBatch(dispatcher: self))
            } catch {
                transaction.fail(error)
                throw error
            }
        default:
            break  // NB: a batch is refused, runs inside the turn, or took it to run
        }
        let began = steps.beginDirect()
        defer {
            steps.end(began)
            drainQueueAndEndTurn()
        }
        // NB: `nil` unless a trace records; the batch's span ends before the actions it queued run.
        let tracer = tracingRecorder()
        let span = tracer?.begin(.batch, .named(name))
        defer { if let span { tracer?.endStep(span, action: name) } }
        transaction.beginBatch()
        let outcome = Result { try body(DispatchBatch(dispatcher: self)) }
        if case .failure(let error) = outcome { transaction.fail(error) }
        // NB: a task cancelled through the dispatcher while its batch ran changes nothing.
        do { try refuseIfInCancelledTask(name) } catch { transaction.fail(error) }
        // NB: the derive stage, once for the whole batch, after its actions and mutations.
        do { try deriveBatch() } catch { transaction.fail(error) }
        let actions = transaction.takeBatchActions()
        let commit = tracer?.begin(.commit, .named("commit"))
        let delivery: PendingDelivery
        do {
            delivery = try transaction.end(step: steps.serial)
        } catch {
            if let commit { tracer?.end(commit, action: name, outcome: "rolled back") }
            recordRefusal(of: AnyAction(name: name, payload: actions), error: error, cause: runningStep.cause)
            throw error
        }
        if let commit { tracer?.end(commit, action: name, outcome: "committed") }
        if transaction.hasQueued { moveTransactionActions() }
        if !delivery.isEmpty { deliverBatch(delivery, as: AnyAction(name: name, payload: actions), tracing: tracer) }
        beforeQueuedActions()
        return try outcome.get()
    }

    /// Whether the calling thread runs a batch, whose actions commit together when it ends.
    package var isRunningBatch: Bool { holdsTurn() && transaction.isBatch }

    /// Tells the observers of a committed batch, then the middleware that observes changes.
    private func deliverBatch(
        _ delivery: consuming PendingDelivery, as action: AnyAction, tracing tracer: TraceRecorder?
    ) {
        let span = tracer?.begin(.observers, .named("observers"))
        defer { if let span { tracer?.end(span, action: action.name) } }
        let (middleware, recorder) = state.withLock {
            ($0.middleware.entries.filter(\.observesChanges), $0.middleware.recorder?.recorder)
        }
        guard !middleware.isEmpty else {
            transaction.deliver(delivery, as: action, tracing: tracer)
            recorder?.batchCommitted(action, in: self)
            return
        }
        relay.startCollecting()
        transaction.deliver(delivery, as: action, tracing: tracer)
        let changes = relay.stopCollecting()
        for entry in middleware { entry.middleware.batchCommitted(action, changes: changes) }
        recorder?.batchCommitted(action, in: self)
    }

    /// Runs one action of the running batch now; `DispatchBatch` calls it.
    func forwardInBatch<Payload: Sendable>(
        _ name: String, payload: Payload, error: (any Error)?, untyped: UnsafePointer<AnyAction>?
    ) throws {
        guard holdsTurn(), transaction.isBatch else { throw FluxionError.batchEnded(name) }
        // NB: one action at a time: the batch's current action (its middleware, handlers or hooks)
        // cannot start another, and trying fails the batch, even if the error is caught.
        guard !transaction.isRunningBatchAction else {
            transaction.fail(FluxionError.batchInsideAction)
            throw FluxionError.batchInsideAction
        }
        transaction.isRunningBatchAction = true
        defer { transaction.isRunningBatchAction = false }
        do {
            try forward(name, payload: payload, error: error, untyped: untyped)
        } catch {
            transaction.fail(error)
            throw error
        }
    }
}
