// Running one action, the turn held: through the middleware, then through its
// stores' handlers as one transaction, then to the observers.
extension Dispatcher {
    /// Runs an action the turn holder took from a queue, or a batch's: looks its routes up first.
    func runAction(_ name: String, erased: () -> AnyAction, handlers: (RouteList) throws -> Void) throws {
        let (list, passage) = state.withLock { ($0.index.list(for: name), $0.middleware.passage) }
        try runAction(list, through: passage, erased: erased, handlers: handlers)
    }

    /// Runs an action through the middleware chain of `passage`, if any, then through the stores of `list`,
    /// recorded by the journal's recorder of `passage`, if any.
    func runAction(
        _ list: RouteList,
        through passage: MiddlewareChain.Passage,
        erased: () -> AnyAction,
        handlers: (RouteList) throws -> Void
    ) throws {
        guard let middleware = passage.middleware else {
            guard let recorder = passage.recorder else { return try handlers(list) }
            // NB: its stores are made first, so that the recorder sees their states before the action.
            let list = list.isReady ? list : try ready(list)
            return try recorder.record(erased(), reaching: list, in: self) { try handlers(list) }
        }
        // NB: `nil` unless a trace records. Without middleware, the action's span begins with its handlers.
        if let tracer = transaction.tracer {
            let action = erased()
            return try trace(action.name, recordingIn: tracer) {
                try runThroughMiddleware(action, version: middleware, then: list)
            }
        }
        try runThroughMiddleware(erased(), version: middleware, then: list)
    }

    /// Runs `action` through the middleware chain of version `middleware`, then through the stores of `list`.
    private func runThroughMiddleware(_ action: AnyAction, version middleware: UInt64, then list: RouteList) throws {
        // NB: its stores are made first, while the turn may still be given up meanwhile.
        let list = list.isReady ? list : try ready(list)
        do {
            _ = try runMiddleware(action, version: middleware, then: list)
        } catch {
            if !transaction.isOpen { transaction.dropQueued() }  // NB: the effects the middleware asked for go too
            throw error
        }
        // NB: effects a middleware asked for after `next`, or for an action it dropped, start now.
        if !transaction.isOpen { enqueueTransactionActions() }
    }

    /// Runs a typed action through the stores of `list`.
    func runHandlers<Payload: Sendable>(_ name: String, payload: Payload, error: (any Error)?, through list: RouteList)
        throws
    {
        if let expected = list.payloadType, expected != ObjectIdentifier(Payload.self),
            let route = list.typedRoute
        {
            let (expected, actual) = typeNames(route.handler.payload ?? Any.self, Payload.self)
            throw FluxionError.payloadTypeMismatch(action: name, expected: expected, actual: actual)
        }
        try runHandlers(name, through: list) { handler, store in
            handler.run(on: store, name: name, payload: payload, error: error)
        } erased: {
            AnyAction(name: name, payload: payload, error: error)
        }
    }

    /// Runs an untyped action through the stores of `list`; a batch's inline mutation through its store.
    func runHandlers(_ action: AnyAction, through list: RouteList) throws {
        if list.isMutation, let mutation = action.payload as? StoreMutation {
            return try apply(mutation, as: action)
        }
        // NB: the handlers of one name agree on the payload type: one check covers them all, and a
        // payload of that very type needs no cast.
        if let expected = list.payloadType, ObjectIdentifier(type(of: action.payload)) != expected,
            let route = list.typedRoute, !route.handler.accepts(action.payload)
        {
            let (expected, actual) = typeNames(route.handler.payload ?? Any.self, type(of: action.payload))
            throw FluxionError.payloadTypeMismatch(action: action.name, expected: expected, actual: actual)
        }
        try runHandlers(action.name, through: list) { handler, store in
            handler.run(on: store, action)
        } erased: {
            action
        }
    }

    /// Runs one action through its stores as a transaction, then tells their observers.
    ///
    /// - Parameters:
    ///   - run: Runs a handler on its store.
    ///   - erased: The action with its payload type erased, for `waitFor`, observers and hooks.
    private func runHandlers(
        _ name: String,
        through list: RouteList,
        run: (Handler, AnyObject) -> HandlerOutcome,
        erased: () -> AnyAction
    ) throws {
        guard !list.routes.isEmpty else {
            if transaction.isBatch { transaction.record(erased()) }
            let hook = state.withLock { state in
                state.deadLetters += 1
                return state.deadLetterHandler
            }
            hook?(erased())
            return
        }
        // NB: a list whose stores exist is used as it is, without a reference count.
        guard list.isReady else { return try runHandlers(name, through: ready(list), run: run, erased: erased) }
        // NB: `nil` unless a trace records: this test is what tracing costs an action while it is off.
        if _slowPath(transaction.tracer != nil) {
            return try runHandlersRecording(name, through: list, run: run, erased: erased)
        }
        try transact {
            try transaction.run(name, erased: erased, through: list, with: run)
        } erased: {
            erased()
        }
    }

    /// Runs a batch's inline mutation: stages the change of its store.
    private func apply(_ mutation: StoreMutation, as action: AnyAction) throws {
        let registration = state.withLock { $0.index.registrations[mutation.storeID] }
        guard let registration else { throw FluxionError.storeNotRegistered(mutation.storeName) }
        let store = try instance(of: registration)
        try transact {
            try transaction.mutate(store, of: registration, with: mutation.apply)
        } erased: {
            action
        }
    }

    /// Runs `body` in the transaction: a batch's stays open; otherwise this one commits
    /// (its changes are delivered, its dispatched actions run next) or rolls back.
    func transact(_ body: () throws -> Void, erased: () -> AnyAction) throws {
        guard !transaction.isBatch else {
            // NB: a batch lists its actions as they reached the stores: after the middleware, which may
            // have changed or dropped them.
            transaction.record(erased())
            return try body()
        }
        do {
            try body()
        } catch {
            transaction.fail(error)
        }
        if let failure = transaction.end() { throw failure }
        enqueueTransactionActions()
        if transaction.hasDeliveries { transaction.deliver(erased()) }
    }

    /// Moves the actions the ended transaction dispatched to the turn's queue.
    func enqueueTransactionActions() {
        transaction.moveQueued { queued in state.withLock { $0.turn.enqueue(&queued) } }
    }

    /// Runs the handler of the store of type `S` for the current action, unless it ran.
    ///
    /// - Returns: The store, or `nil` when it does not handle the action.
    func runFirst<State, S: Store<State>>(_ type: S.Type) throws -> AnyObject? {
        guard holdsTurn(), transaction.isRunningHandler else {
            throw FluxionError.waitForOutsideDispatch(typeName(S.self))
        }
        let tracer = transaction.tracer
        let waited = try transaction.waitFor(ObjectIdentifier(S.self)) { handler, store in
            // NB: a pending route means several routes, so the transaction holds the action.
            guard let action = transaction.action else {
                return .failed(FluxionError.waitForOutsideDispatch(typeName(S.self)))
            }
            guard let tracer else { return handler.run(on: store, action) }
            return tracer.recordHandler(of: store, action: action.name) { handler.run(on: store, action) }
        }
        if let store = waited { return store }
        guard isRegistered(type) else {
            throw FluxionError.storeNotRegistered(
                typeName(S.self), waitingStore: transaction.runningStoreName, action: transaction.actionName)
        }
        return nil
    }
}
