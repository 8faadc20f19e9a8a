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

    /// Passes `action` to the first middleware of `chain`, or, past the last, to the stores.
    ///
    /// - Returns: The changes the action produced.
    func runMiddleware(
        _ action: AnyAction,
        from chain: ArraySlice<MiddlewareEntry>,
        collectingChanges: Bool
    ) throws -> [AnyStoreChange] {
        guard let first = chain.first else {
            let list = state.withLock { $0.index.list(for: action.name) }
            guard collectingChanges, !transaction.isBatch else {
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
        let next = MiddlewareNext(dispatcher: self, chain: chain.dropFirst(), collectsChanges: collectingChanges)
        let wasInMiddleware = transaction.isInMiddleware
        transaction.isInMiddleware = true
        defer { transaction.isInMiddleware = wasInMiddleware }
        return try first.middleware.dispatch(action, next: next)
    }
}
