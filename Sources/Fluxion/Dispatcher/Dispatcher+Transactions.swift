// Running one action, the turn held: through the middleware and the journal's recorder, if any, then through
// its stores' handlers as one transaction, then to the observers. An action travels as its parts, its payload's
// type kept: no closure carries it, and no generic type is built on the way. An untyped action (an `AnyAction`)
// travels the same way, its payload opened (as its own type), and itself lent as `untyped` to what needs it
// whole.
extension Dispatcher {
    /// Runs an action the turn holder took from a queue, or a batch's: looks its routes up first.
    func forward<Payload: Sendable>(
        _ name: String, payload: Payload, error: (any Error)?, untyped: UnsafePointer<AnyAction>?
    ) throws {
        let (list, passage) = state.withLock { ($0.index.list(for: name), $0.middleware.passage) }
        guard passage.isEmpty else {
            return try forward(list, through: passage, name, payload: payload, error: error, untyped: untyped)
        }
        try transact(list, name, payload: payload, error: error, untyped: untyped)
    }

    /// ``forward(_:payload:error:untyped:)`` for an untyped action.
    func forward(_ action: AnyAction) throws {
        try withUnsafePointer(to: action) { untyped in
            // NB: the payload is opened: it travels as its own type, as a typed action's does.
            func open<Payload: Sendable>(_ payload: Payload) throws {
                try forward(action.name, payload: payload, error: action.error, untyped: untyped)
            }
            let payload = action.payload
            try open(payload)
        }
    }

    /// Runs an action through the middleware chain of `passage`, if any, then through the stores of `list`,
    /// recorded by the journal's recorder of `passage`, if any; a passage with neither is not taken
    /// (``MiddlewareChain/Passage/isEmpty``): the action goes to ``transact(_:_:payload:error:untyped:)``.
    func forward<Payload: Sendable>(
        _ list: RouteList, through passage: MiddlewareChain.Passage, _ name: String, payload: Payload,
        error: (any Error)?, untyped: UnsafePointer<AnyAction>?
    ) throws {
        guard let middleware = passage.middleware else {
            // NB: its stores are made first, so that the recorder sees their states before the action.
            guard list.isReady else {
                return try forward(
                    ready(list), through: passage, name, payload: payload, error: error, untyped: untyped)
            }
            // NB: the passage holds its recorder, and the caller the list: both are lent without reference counts.
            return try Unmanaged.passUnretained(passage.recorder.unsafelyUnwrapped)._withUnsafeGuaranteedRef {
                try $0.record(
                    { untyped?.pointee ?? AnyAction(name: name, payload: payload, error: error) }, reaching: list,
                    in: self, { try transact(list, name, payload: payload, error: error, untyped: untyped) })
            }
        }
        let action = untyped?.pointee ?? AnyAction(name: name, payload: payload, error: error)
        // NB: `nil` unless a trace records. Without middleware, the action's span begins with its handlers.
        if let tracer = transaction.tracer {
            return try trace(action.name, recordingIn: tracer) {
                try forwardThroughMiddleware(action, version: middleware, then: list)
            }
        }
        try forwardThroughMiddleware(action, version: middleware, then: list)
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
                if transaction.commits == commits {
                    transaction.dropQueued()
                } else if transaction.hasQueued {
                    moveTransactionActions()
                }
            }
            throw error
        }
        // NB: effects a middleware asked for after `next`, or for an action it dropped, start now.
        if !transaction.isOpen, transaction.hasQueued { moveTransactionActions() }
    }

    /// Runs an action through the stores of `list` as one transaction, then tells their observers; a batch's
    /// action joins the batch's transaction, and a batch's inline mutation (untyped) stages its store's change.
    ///
    /// - Parameter untyped: The action whole, when it was dispatched untyped (its payload, opened, is then
    ///   `payload`).
    func transact<Payload: Sendable>(
        _ list: RouteList, _ name: String, payload: Payload, error: (any Error)?, untyped: UnsafePointer<AnyAction>?
    ) throws {
        // NB: the handlers of one name agree on the payload type: one check covers them all. An untyped action's
        // payload is one its handlers can cast (of their type, an optional, a subclass).
        if let expected = list.payloadType, expected != ObjectIdentifier(Payload.self), let route = list.typedRoute,
            !(untyped.map { route.handler.accepts($0.pointee.payload) } ?? false)
        {
            let dispatched = untyped.map { type(of: $0.pointee.payload) } ?? Payload.self
            let (expected, actual) = typeNames(route.handler.payload ?? Any.self, dispatched)
            throw FluxionError.payloadTypeMismatch(action: name, expected: expected, actual: actual)
        }
        if list.isMutation, let mutation = untyped?.pointee.payload as? StoreMutation {
            return try apply(mutation, as: untyped.unsafelyUnwrapped.pointee)
        }
        guard !list.routes.isEmpty else {
            let action = untyped?.pointee ?? AnyAction(name: name, payload: payload, error: error)
            if transaction.isBatch { transaction.appendToBatch(action) }
            let hook = state.withLock { state in
                state.deadLetters += 1
                return state.deadLetterHandler
            }
            hook?(action)
            return
        }
        // NB: a list whose stores exist is used as it is, without a reference count.
        guard list.isReady else {
            return try transact(ready(list), name, payload: payload, error: error, untyped: untyped)
        }
        // NB: `nil` unless a trace records: this test is what tracing costs an action while it is off.
        if _slowPath(transaction.tracer != nil) {
            return try transactTraced(list, name, payload: payload, error: error, untyped: untyped)
        }
        guard !transaction.isBatch else {
            // NB: a batch lists its actions as they reached the stores: after the middleware, which may
            // have changed or dropped them. Its transaction stays open.
            transaction.appendToBatch(untyped?.pointee ?? AnyAction(name: name, payload: payload, error: error))
            return try transaction.runHandlers(name, payload: payload, error: error, through: list, tracing: nil)
        }
        do {
            try transaction.runHandlers(name, payload: payload, error: error, through: list, tracing: nil)
        } catch {
            transaction.fail(error)
        }
        // NB: the transaction commits (its changes are delivered, its dispatched actions run next) or rolls back.
        let delivery = try transaction.end(step: steps.serial)
        if transaction.hasQueued { moveTransactionActions() }
        guard !delivery.isEmpty else { return }
        transaction.deliver(delivery, as: untyped?.pointee ?? AnyAction(name: name, payload: payload, error: error))
    }

    /// ``transact(_:_:payload:error:untyped:)`` for an untyped action: a middleware's, or a batch's inline mutation.
    func transact(_ action: AnyAction, in list: RouteList) throws {
        try withUnsafePointer(to: action) { untyped in
            // NB: the payload is opened: it travels as its own type, as a typed action's does.
            func open<Payload: Sendable>(_ payload: Payload) throws {
                try transact(list, action.name, payload: payload, error: action.error, untyped: untyped)
            }
            let payload = action.payload
            try open(payload)
        }
    }

    /// Runs a batch's inline mutation: stages the change of its store.
    private func apply(_ mutation: StoreMutation, as action: AnyAction) throws {
        let registration = state.withLock { $0.index.registrations[mutation.storeID] }
        guard let registration else { throw FluxionError.storeNotRegistered(mutation.storeName) }
        // NB: a derived state is derived, never set: refused before anything is staged.
        guard !registration.isComputed else { throw FluxionError.computedStoreMutated(registration.name) }
        let store = try instance(of: registration)
        guard !transaction.isBatch else {
            transaction.appendToBatch(action)
            return try transaction.mutate(store, of: registration, with: mutation.apply)
        }
        // NB: a batch's mutation kept and dispatched again (by a middleware, say) is a transaction of its own.
        do {
            try transaction.mutate(store, of: registration, with: mutation.apply)
        } catch {
            transaction.fail(error)
        }
        let delivery = try transaction.end(step: steps.serial)
        if transaction.hasQueued { moveTransactionActions() }
        guard !delivery.isEmpty else { return }
        transaction.deliver(delivery, as: action)
    }

    /// Moves the actions the ended transaction dispatched to the turn's queue: called when it has some
    /// (``Transaction/hasQueued``).
    func moveTransactionActions() {
        // NB: effects alone, the most common case, skip the turn's queue (see `EffectStarts`).
        if !transaction.effects.requested.isEmpty {
            if trackRequestedEffects() { return }
            transaction.queueRequestedEffects()
        }
        transaction.moveQueued { queued in
            transaction.effects.defersStarts = true  // NB: no task's work begins before the queue is run
            state.withLock { state in
                // NB: a start queued behind the step is a task `cancelTasks(id:)` reaches before it starts.
                queued.visitActions { if $0.isEffect, let task = $0.task { state.tasks.queueStart(of: task) } }
                state.tasks.forgetRecent()
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
