extension Dispatcher {
    /// Adds a middleware at the end of the chain; it sees every action dispatched from now on.
    ///
    /// Safe while other threads dispatch: an action already running keeps the
    /// chain it started with. See <doc:MiddlewareAndAsyncWork>.
    ///
    /// - Returns: An identifier for ``removeMiddleware(_:)``.
    @discardableResult
    public func addMiddleware(_ middleware: any Middleware) -> MiddlewareID {
        let observesChanges = middleware.observesChanges  // NB: user code, read before locking
        // NB: the stores forward their changes before the middleware can run, so it never misses one.
        if observesChanges { startForwardingChanges() }
        return state.withLock { $0.middleware.append(middleware, observesChanges: observesChanges) }
    }

    /// Removes a middleware from the chain.
    ///
    /// - Returns: Whether it was in the chain.
    @discardableResult
    public func removeMiddleware(_ id: MiddlewareID) -> Bool {
        let removed = state.withLock { $0.middleware.remove(id) }
        return !removed.isEmpty  // NB: the removed middleware is released here, outside the lock
    }

    /// Runs `action` through `chain`, which is not empty, then its stores: the turn is kept throughout.
    func runMiddleware(
        _ action: AnyAction,
        through chain: [MiddlewareEntry],
        collectingChanges: Bool
    ) throws -> [AnyStoreChange] {
        let (run, outer) = transaction.beginMiddleware()
        defer { transaction.endMiddleware(restoring: outer) }
        let next = MiddlewareNext(
            dispatcher: self, chain: chain, position: 1, run: run, collectsChanges: collectingChanges)
        return try chain[0].dispatch(action, next: next)
    }

    /// Passes `action` to the middleware at `next`'s place, or, past the last, to the stores.
    ///
    /// - Returns: The changes the action produced.
    func runMiddleware(_ action: AnyAction, from next: MiddlewareNext) throws -> [AnyStoreChange] {
        guard next.position == next.chain.count else {
            return try next.chain[next.position].dispatch(action, next: next.following)
        }
        let thread = ThreadID.current
        let (holdsTurn, list) = state.withLock { ($0.turn.holder == thread, $0.index.list(for: action.name)) }
        // NB: a `next` kept past its run, or taken to another thread, must not reach the stores: only
        // the turn holder may read the transaction, and its middleware run must be this one.
        guard holdsTurn, transaction.middlewareRun == next.run else {
            throw FluxionError.middlewareNextOutsideDispatch(action.name)
        }
        guard next.collectsChanges, !transaction.isBatch else {
            try runHandlers(action, through: list)
            return []
        }
        // NB: created before collecting starts: creating a store may give up the turn meanwhile.
        _ = try ready(list)
        relay.startCollecting()
        defer { _ = relay.stopCollecting() }
        try runHandlers(action, through: list)
        return relay.stopCollecting()
    }
}
