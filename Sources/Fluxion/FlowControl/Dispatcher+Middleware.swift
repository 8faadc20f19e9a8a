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

    /// Runs `action` through the middleware chain, then through `list`, the routes of its name, if
    /// it keeps it: the turn is kept throughout.
    ///
    /// - Parameter version: The chain's version when the action was dispatched: the spare run of
    ///   that version serves, or a new run of the chain as it is now.
    func runMiddleware(_ action: AnyAction, version: UInt64, then list: RouteList) throws -> [AnyStoreChange] {
        guard var run = transaction.takeSpareMiddlewareRun(of: version) ?? makeMiddlewareRun() else {
            // NB: the last middleware was removed since the action was dispatched.
            try runHandlers(action, through: list)
            return []
        }
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

    /// A run of the chain as it is now; `nil` when it is empty.
    private func makeMiddlewareRun() -> MiddlewareRun? {
        let chain = state.withLock { $0.middleware }
        guard !chain.entries.isEmpty else { return nil }
        return MiddlewareRun(
            dispatcher: self, chain: chain.entries, version: chain.version, collectsChanges: chain.observesChanges)
    }

    /// Passes `action` to the first middleware of `run`; the `next` it gets ends with this call, unless kept.
    private func runMiddleware(_ action: AnyAction, from run: MiddlewareRun) throws -> [AnyStoreChange] {
        try run.dispatch(action, at: 0, next: MiddlewareNext(run: run, position: 1))
    }

    /// Passes `action` to the middleware at `next`'s place, or, past the last, to the stores.
    ///
    /// - Returns: The changes the action produced.
    func runMiddleware(_ action: AnyAction, from next: MiddlewareNext) throws -> [AnyStoreChange] {
        let run = next.run
        guard next.position == run.chain.count else {
            return try run.dispatch(action, at: next.position, next: next.following)
        }
        // NB: a `next` kept past its run, taken to another thread, or called by a handler or observer
        // of the action it passes on, must not reach the stores; the thread running the chain holds
        // the turn, and may read the transaction.
        guard run.isRunning(on: .current), !run.isReachingStores else {
            throw FluxionError.middlewareNextOutsideDispatch(action.name)
        }
        run.isReachingStores = true
        defer { run.isReachingStores = false }
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
