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

    /// Runs `action` through `chain`, which is not empty, then through `list`, the routes of its
    /// name, if it keeps it: the turn is kept throughout.
    func runMiddleware(
        _ action: AnyAction,
        through chain: [MiddlewareEntry],
        then list: RouteList,
        collectingChanges: Bool
    ) throws -> [AnyStoreChange] {
        var run =
            transaction.takeSpareMiddlewareRun(for: chain, collectingChanges: collectingChanges)
            ?? MiddlewareRun(dispatcher: self, chain: chain, collectsChanges: collectingChanges)
        let outer = transaction.beginMiddleware()
        run.begin(action.name, through: list)
        defer {
            run.end()
            transaction.endMiddleware(restoring: outer)
            // NB: a run no `next` outlived is the dispatcher's alone again: the next action reuses it.
            if isKnownUniquelyReferenced(&run) {
                transaction.keepSpareMiddlewareRun(run)
            } else {
                run.keepDispatcher()
            }
        }
        return try runMiddleware(action, from: run)
    }

    /// Passes `action` to the first middleware of `run`; the `next` it gets ends with this call, unless kept.
    private func runMiddleware(_ action: AnyAction, from run: MiddlewareRun) throws -> [AnyStoreChange] {
        try run.chain[0].dispatch(action, next: MiddlewareNext(run: run, position: 1))
    }

    /// Passes `action` to the middleware at `next`'s place, or, past the last, to the stores.
    ///
    /// - Returns: The changes the action produced.
    func runMiddleware(_ action: AnyAction, from next: MiddlewareNext) throws -> [AnyStoreChange] {
        let run = next.run
        guard next.position == run.chain.count else {
            return try run.chain[next.position].dispatch(action, next: next.following)
        }
        // NB: a `next` kept past its run, or taken to another thread, must not reach the stores;
        // the thread running the chain holds the turn, and may read the transaction.
        guard run.isRunning(on: .current) else { throw FluxionError.middlewareNextOutsideDispatch(action.name) }
        let list = run.routes(of: action.name) ?? state.withLock { $0.index.list(for: action.name) }
        guard run.collectsChanges, !transaction.isBatch else {
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
