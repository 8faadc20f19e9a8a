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
        if observesChanges { startRelayingChanges() }
        return state.withLock { $0.middleware.append(middleware, observesChanges: observesChanges) }
    }

    /// Removes a middleware from the chain.
    ///
    /// When this returns, the dispatcher holds the middleware no more, and
    /// releases it: what it captured is freed with it (a stopped ``Journal``'s
    /// steps, say). An action running on another thread keeps the chain it
    /// started with, so this waits for it to end, as a dispatch would. Called
    /// by an action's own middleware, handler or observer, the middleware is
    /// released once that action has left it.
    ///
    /// - Returns: Whether it was in the chain.
    @discardableResult
    public func removeMiddleware(_ id: MiddlewareID) -> Bool {
        let (removed, version) = state.withLock { ($0.middleware.remove(id), $0.middleware.version) }
        guard !removed.isEmpty else { return false }
        // NB: only the turn holder touches the transaction, whose kept run may hold the middleware.
        _ = withTurn { middlewareRuns.drop(before: version) }
        return true  // NB: the removed middleware, and the dropped run, are released here, outside the lock
    }

    /// Runs `action` through the middleware chain, then through `list`, the routes of its name, if
    /// it keeps it: the turn is kept throughout.
    ///
    /// - Parameter version: The chain's version when the action was dispatched: the spare run of
    ///   that version serves, or a new run of the chain as it is now.
    @inline(__always)  // NB: two calls fewer on every action's way into the chain, with `enterChain`
    func forward(_ action: AnyAction, throughChainOf version: UInt64, to list: RouteList) throws {
        guard let lent = middlewareRuns.lend(of: version) else {
            return try forwardThroughNewRun(action, to: list)
        }
        let outer = middlewareRuns.begin()
        // NB: the spare stays in `middlewareRuns` until it is taken back: it is lent without a reference count.
        // The run is given back on each path, written out rather than deferred: a `defer` is one more call.
        do {
            try lent._withUnsafeGuaranteedRef { try enterChain(action, of: $0, to: list) }
        } catch {
            giveBackLentRun(restoring: outer)
            throw error
        }
        giveBackLentRun(restoring: outer)
    }

    /// Ends the run of an action that borrowed the spare run.
    @inline(__always)
    private func giveBackLentRun(restoring outer: Bool) {
        middlewareRuns.end(restoring: outer)
        _ = middlewareRuns.takeBack()  // NB: a run dropped is released here, outside the lock
    }

    /// Runs `action` through a run of the chain as it is now, made for it, then through `list`; the run
    /// is kept as the spare if no `next` outlived it.
    private func forwardThroughNewRun(_ action: AnyAction, to list: RouteList) throws {
        guard var run = makeMiddlewareRun() else {
            // NB: the last middleware was removed since the action was dispatched.
            return try transact(action, in: list)
        }
        let outer = middlewareRuns.begin()
        defer {
            middlewareRuns.end(restoring: outer)
            // NB: a run no `next` outlived is the dispatcher's alone again: the next action may reuse it.
            if isKnownUniquelyReferenced(&run) {
                _ = middlewareRuns.keep(run)  // NB: the run it replaces is released here
            } else {
                run.outlive()
            }
        }
        try enterChain(action, of: run, to: list)
    }

    /// A run of the chain as it is now; `nil` when it is empty.
    private func makeMiddlewareRun() -> MiddlewareRun? {
        let chain = state.withLock { $0.middleware }
        guard !chain.entries.isEmpty else { return nil }
        return MiddlewareRun(
            dispatcher: self, chain: chain.entries, recorder: chain.recorder?.recorder, version: chain.version,
            collectsChanges: chain.observesChanges)
    }

    /// Passes `action`, whose routes are `list`, to the first middleware of `run`; the `next` it gets
    /// ends with this call, unless kept.
    @inline(__always)
    private func enterChain(_ action: AnyAction, of run: MiddlewareRun, to list: RouteList) throws {
        run.begin(action.name, through: list)
        defer { run.end() }
        _ = try pass(action, to: run, at: 0, next: MiddlewareNext(run: run, position: 1))
    }

    /// Passes `action` on from the `next` at `position` of `run`, which `thread` runs, holding the turn,
    /// while a trace records, or past the last middleware, to the stores.
    ///
    /// - Returns: The changes the action produced.
    func forward(_ action: AnyAction, from position: Int, of run: MiddlewareRun, on thread: ThreadID) throws
        -> [AnyStoreChange]
    {
        guard position == run.count else {
            return try pass(action, to: run, at: position, next: MiddlewareNext(run: run, position: position + 1))
        }
        // NB: the dispatch that began the run holds the list until the run ends: it is lent uncounted.
        guard let lent = run.routes(of: action.name) else {
            return try reachStoresRenamed(action, from: run, on: thread)
        }
        run.enterStores()
        defer { run.leaveStores(on: thread) }
        return try reachStores(action, through: lent, from: run)
    }

    /// Runs `action`, which a middleware renamed, through the stores of its new name.
    private func reachStoresRenamed(_ action: AnyAction, from run: MiddlewareRun, on thread: ThreadID) throws
        -> [AnyStoreChange]
    {
        let list = state.withLock { $0.index.list(for: action.name) }
        run.enterStores()
        defer { run.leaveStores(on: thread) }
        return try withExtendedLifetime(list) { try reachStores(action, through: .passUnretained(list), from: run) }
    }

    /// Passes `action` to the middleware at `position` of `run`, which this thread runs, holding the turn.
    private func pass(_ action: AnyAction, to run: MiddlewareRun, at position: Int, next: MiddlewareNext) throws
        -> [AnyStoreChange]
    {
        // NB: `nil` unless a trace records.
        guard let tracer = transaction.tracer else { return try run.dispatch(action, at: position, next: next) }
        let middleware = tracer.middleware(at: position, version: run.version) { state.withLock { $0.middleware } }
        let mark = tracer.begin(.middleware, middleware)
        do {
            let changes = try run.dispatch(action, at: position, next: next)
            tracer.end(mark, action: action.name)
            return changes
        } catch {
            tracer.end(mark, action: action.name, outcome: "threw")
            throw error
        }
    }

    /// Runs `action` through the stores of `list`, past the last middleware of `run`, recorded by its
    /// journal's recorder, if any; `list` is lent, held by the caller.
    ///
    /// - Returns: The changes the action produced, if the run's middleware observe them.
    private func reachStores(_ action: AnyAction, through list: Unmanaged<RouteList>, from run: MiddlewareRun) throws
        -> [AnyStoreChange]
    {
        guard run.recorder == nil, !run.collectsChanges else {
            return try list._withUnsafeGuaranteedRef { try reachStoresRecorded(action, through: $0, from: run) }
        }
        try list._withUnsafeGuaranteedRef { try transact(action, in: $0) }
        return []
    }

    /// Runs `action` through the stores of `list` as `reachStores` does, for a journal's recorder or
    /// for middleware that observe changes.
    private func reachStoresRecorded(_ action: AnyAction, through list: RouteList, from run: MiddlewareRun) throws
        -> [AnyStoreChange]
    {
        guard let recorder = run.recorder else { return try reachStoresUnrecorded(action, through: list, from: run) }
        // NB: its stores are made first, so that the recorder sees their states before the action.
        let list = list.isReady ? list : try ready(list)
        let erased = { action }
        return try recorder.record(erased, reaching: list, in: self) {
            try reachStoresUnrecorded(action, through: list, from: run)
        }
    }

    private func reachStoresUnrecorded(_ action: AnyAction, through list: RouteList, from run: MiddlewareRun) throws
        -> [AnyStoreChange]
    {
        guard run.collectsChanges, !transaction.isBatch else {
            try transact(action, in: list)
            return []
        }
        // NB: created before collecting starts: creating a store may give up the turn meanwhile.
        _ = try ready(list)
        relay.startCollecting()
        defer { _ = relay.stopCollecting() }
        try transact(action, in: list)
        return relay.stopCollecting()
    }
}
