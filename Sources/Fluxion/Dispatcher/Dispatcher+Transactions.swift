// Running one action, the turn held: through the middleware, then through its
// stores' handlers as one transaction, then to the observers.
extension Dispatcher {
    /// Runs an action the turn holder took from a queue, or a batch's: looks its routes up first.
    func forward(_ name: String, erased: () -> AnyAction, handlers: (RouteList) throws -> Void) throws {
        let (list, passage) = state.withLock { ($0.index.list(for: name), $0.middleware.passage) }
        try forward(list, through: passage, erased: erased, handlers: handlers)
    }

    /// Runs an action through the middleware chain of `passage`, if any, then through the stores of `list`,
    /// recorded by the journal's recorder of `passage`, if any.
    func forward(
        _ list: RouteList,
        through passage: MiddlewareChain.Passage,
        erased: () -> AnyAction,
        handlers: (RouteList) throws -> Void
    ) throws {
        guard let middleware = passage.middleware else {
            guard passage.recorder != nil else { return try handlers(list) }
            // NB: the passage holds its recorder, and the caller the list: both are lent without reference counts.
            let recorder = Unmanaged.passUnretained(passage.recorder.unsafelyUnwrapped)
            // NB: its stores are made first, so that the recorder sees their states before the action.
            guard list.isReady else { return try record(erased, reaching: ready(list), by: recorder, handlers) }
            return try record(erased, reaching: list, by: recorder, handlers)
        }
        // NB: `nil` unless a trace records. Without middleware, the action's span begins with its handlers.
        if let tracer = transaction.tracer {
            let action = erased()
            return try trace(action.name, recordingIn: tracer) {
                try forwardThroughMiddleware(action, version: middleware, then: list)
            }
        }
        try forwardThroughMiddleware(erased(), version: middleware, then: list)
    }

    /// Runs an action through the stores of `list`, recorded by `recorder`.
    @inline(__always)
    private func record(
        _ erased: () -> AnyAction, reaching list: RouteList, by recorder: Unmanaged<JournalRecorder>,
        _ handlers: (RouteList) throws -> Void
    ) throws {
        try recorder._withUnsafeGuaranteedRef { recorder in
            try recorder.record(erased, reaching: list, in: self) { try handlers(list) }
        }
    }

    /// Runs `action` through the middleware chain of version `middleware`, then through the stores of `list`.
    private func forwardThroughMiddleware(_ action: AnyAction, version middleware: UInt64, then list: RouteList) throws
    {
        // NB: its stores are made first, while the turn may still be given up meanwhile. A list whose
        // stores exist is used as it is, without a reference count.
        guard list.isReady else { return try forwardThroughMiddleware(action, version: middleware, then: ready(list)) }
        let commits = transaction.commits
        do {
            try forward(action, throughChainOf: middleware, to: list)
        } catch {
            // NB: what a middleware asked for before an action that never committed goes with it; asked for
            // once it committed (by a middleware after `next`, or an observer), it starts: its step happened.
            if !transaction.isOpen {
                if transaction.commits == commits { transaction.dropQueued() } else { enqueueTransactionActions() }
            }
            throw error
        }
        // NB: effects a middleware asked for after `next`, or for an action it dropped, start now.
        if !transaction.isOpen { enqueueTransactionActions() }
    }

    /// Runs a typed action through the stores of `list`.
    func transact<Payload: Sendable>(_ name: String, payload: Payload, error: (any Error)?, in list: RouteList)
        throws
    {
        if let expected = list.payloadType, expected != ObjectIdentifier(Payload.self),
            let route = list.typedRoute
        {
            let (expected, actual) = typeNames(route.handler.payload ?? Any.self, Payload.self)
            throw FluxionError.payloadTypeMismatch(action: name, expected: expected, actual: actual)
        }
        try transact(name, in: list) { handler, store in
            handler.run(on: store, name: name, payload: payload, error: error)
        } erased: {
            AnyAction(name: name, payload: payload, error: error)
        }
    }

    /// Runs an untyped action through the stores of `list`; a batch's inline mutation through its store.
    func transact(_ action: AnyAction, in list: RouteList) throws {
        if list.isMutation, let mutation = action.payload as? StoreMutation {
            return try apply(mutation, as: action)
        }
        // NB: the handlers of one name agree on the payload type: one check covers them all, and a
        // payload stored as that very type needs no cast.
        if let expected = list.payloadType, action.storedPayloadType != expected,
            let route = list.typedRoute, !route.handler.accepts(action.payload)
        {
            let (expected, actual) = typeNames(route.handler.payload ?? Any.self, type(of: action.payload))
            throw FluxionError.payloadTypeMismatch(action: action.name, expected: expected, actual: actual)
        }
        try transact(action.name, in: list) { handler, store in
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
    private func transact(
        _ name: String,
        in list: RouteList,
        running run: (Handler, AnyObject) -> HandlerOutcome,
        erased: () -> AnyAction
    ) throws {
        guard !list.routes.isEmpty else {
            if transaction.isBatch { transaction.appendToBatch(erased()) }
            let hook = state.withLock { state in
                state.deadLetters += 1
                return state.deadLetterHandler
            }
            hook?(erased())
            return
        }
        // NB: a list whose stores exist is used as it is, without a reference count.
        guard list.isReady else { return try transact(name, in: ready(list), running: run, erased: erased) }
        // NB: `nil` unless a trace records: this test is what tracing costs an action while it is off.
        if _slowPath(transaction.tracer != nil) {
            return try transactTraced(name, in: list, running: run, erased: erased)
        }
        try withTransaction {
            try transaction.runHandlers(name, through: list, with: run)
        } erased: {
            erased()
        }
    }

    /// Runs a batch's inline mutation: stages the change of its store.
    private func apply(_ mutation: StoreMutation, as action: AnyAction) throws {
        let registration = state.withLock { $0.index.registrations[mutation.storeID] }
        guard let registration else { throw FluxionError.storeNotRegistered(mutation.storeName) }
        // NB: a derived state is derived, never set: refused before anything is staged.
        guard !registration.isComputed else { throw FluxionError.computedStoreMutated(registration.name) }
        let store = try instance(of: registration)
        try withTransaction {
            try transaction.mutate(store, of: registration, with: mutation.apply)
        } erased: {
            action
        }
    }

    /// Runs `body` in the transaction: a batch's stays open; otherwise this one commits
    /// (its changes are delivered, its dispatched actions run next) or rolls back.
    @inline(__always)  // NB: one call less on every dispatch
    func withTransaction(_ body: () throws -> Void, erased: () -> AnyAction) throws {
        guard !transaction.isBatch else {
            // NB: a batch lists its actions as they reached the stores: after the middleware, which may
            // have changed or dropped them.
            transaction.appendToBatch(erased())
            return try body()
        }
        do {
            try body()
        } catch {
            transaction.fail(error)
        }
        let delivery = try transaction.end(step: steps.serial)
        enqueueTransactionActions()
        guard !delivery.isEmpty else { return }
        transaction.deliver(delivery, as: erased())
    }

    /// Moves the actions the ended transaction dispatched to the turn's queue.
    @inline(__always)  // NB: most often there are none: the test costs no call
    func enqueueTransactionActions() {
        if transaction.hasQueued { moveTransactionActions() }
    }

    private func moveTransactionActions() {
        // NB: effects alone, the most common case, skip the turn's queue (see `EffectStarts`).
        if !transaction.effects.requested.isEmpty {
            if trackRequestedEffects() { return }
            transaction.queueRequestedEffects()
        }
        transaction.moveQueued { queued in
            state.withLock { state in
                // NB: a start queued behind the step is a task `cancelTasks(id:)` reaches before it starts.
                queued.visitActions { if $0.isEffect, let task = $0.task { state.tasks.queueStart(of: task) } }
                state.turn.enqueue(&queued)
            }
        }
    }

    /// Whether the calling thread runs the handler call `call` now: the one time an ``Effects`` given to that call
    /// may ask for an effect or a cancellation, which starts when the call's step commits.
    func runsHandlerCall(_ call: UInt64) -> Bool {
        // NB: the transaction is read only once this thread is known to hold the turn.
        call != 0 && holdsTurn() && transaction.isOpen && steps.isRunning && transaction.handlerCall == call
    }

    /// Runs the handler of the store of type `S` for the current action, unless it ran.
    ///
    /// - Returns: The store, or `nil` when it does not handle the action.
    func runFirst<State, S: Store<State>>(_ type: S.Type) throws -> AnyObject? {
        try runFirst(ObjectIdentifier(S.self), named: typeName(S.self))
    }

    /// Runs the handler of the store of the type `id` names, `name`, for the current action, unless it ran.
    ///
    /// - Returns: The store, or `nil` when it does not handle the action.
    func runFirst(_ id: ObjectIdentifier, named name: @autoclosure () -> String) throws -> AnyObject? {
        guard holdsTurn(), transaction.isRunningHandler else {
            throw FluxionError.waitForOutsideDispatch(name())
        }
        if let store = try transaction.waitFor(id) { return store }
        guard state.withLock({ $0.index.registrations[id] != nil }) else {
            throw FluxionError.storeNotRegistered(
                name(), waitingStore: transaction.runningStoreName, action: transaction.actionName)
        }
        return nil
    }

    /// ``Store/waitFor(_:)`` for the thread holding the turn: runs the handler of the store of type `S`
    /// for the current action, unless it ran, and returns that store.
    func waitedStore<State, S: Store<State>>(_ type: S.Type) throws -> S {
        guard transaction.isRunningHandler else { throw FluxionError.waitForOutsideDispatch(typeName(S.self)) }
        let id = ObjectIdentifier(S.self)
        // NB: the route for `S` holds a store of type `S`.
        if let store = try transaction.waitFor(id) { return unsafeDowncast(store, to: S.self) }
        // NB: a store the action does not reach: one look-up, under the lock, finds it or its registration.
        let (store, registration) = state.withLock { state in
            (state.index.instances[id], state.index.registrations[id])
        }
        if let store { return unsafeDowncast(store, to: S.self) }
        guard let registration else {
            throw FluxionError.storeNotRegistered(
                typeName(S.self), waitingStore: transaction.runningStoreName, action: transaction.actionName)
        }
        return unsafeDowncast(try instance(of: registration), to: S.self)
    }
}
