// One dispatch, from the caller to the observers: each layer has a verb of its own.
//
//  caller            Dispatcher                                  Transaction            stores, observers
//    │ dispatch(_:payload:)                                          │                        │
//    ├──────────────▶ admit: under the lock, decides where the       │                        │
//    │                action goes (Dispatcher+Admission.swift):      │                        │
//    │                refused · joins the running transaction ·      │                        │
//    │                queued · held · waits for the turn · runs now  │                        │
//    │                │ runs now, holding the turn:                  │                        │
//    │                forward: through each middleware, if any       │                        │
//    │                (next ▶ MiddlewareRun.pass ▶ … ▶ reachStores), │                        │
//    │                then the journal's recorder, if one records    │                        │
//    │                │                                              │                        │
//    │                transact ─────────────────────────────────────▶ runHandlers            │
//    │                                                               ├─ runHandler ──────────▶ handler: stages
//    │                                                               │  (waitFor runs one     │ (several stores) or
//    │                                                               │   early)               │ commits (one store)
//    │                withTransaction ◀───────────────────────────── end(): commits every staged
//    │                │                                               change, or rolls every one back
//    │                ├─ queued actions move to the turn's queue     │                        │
//    │                └─ deliver ──────────────────────────────────▶ deliver ───────────────▶ observers
//    │                drainQueueAndEndTurn: the actions queued meanwhile, in order;     │
//    │◀────────────── then the turn is given up                      │                        │
//
// A batch keeps one transaction open across its actions (see `BatchState`); the middleware's runs
// are `MiddlewareRuns`'. Only the thread holding the dispatch turn touches a transaction.

/// One action, or one batch, as a unit: every change it makes commits together, or none does.
///
/// The transaction runs the action's handlers (``Store/waitFor(_:)`` may run
/// some early), stages their changes when more than one store could change,
/// and keeps the actions its handlers dispatch. Then it either commits every
/// staged state, in registration order, and hands those actions on, or rolls
/// every staged state back and drops them. A batch keeps one transaction open
/// across its actions and inline mutations. An action that reaches one store
/// alone needs no staging: its handler's change commits as it returns.
///
/// A dispatcher keeps one transaction and reuses its buffers.
final class Transaction: @unchecked Sendable {  // touched only by the thread holding the dispatch turn
    // NB: only the thread holding the dispatch turn touches the transaction, so its state skips the
    // run-time exclusivity checks (unchecked: W1 +1,058, W6 +2,550 instructions/dispatch checked, callgrind).
    // NB: not private, for the transaction's own extensions (Transaction+Delivery.swift); nothing else touches it.
    @exclusivity(unchecked) var state = TransactionState()
    /// The performance trace recording the dispatcher's actions; `nil`, and so costing one test
    /// at each place that would record, while none does. See `Dispatcher+Tracing.swift`.
    var tracer: TraceRecorder?
    /// Actions the transaction's code dispatched; they run after it commits, or are dropped with it (see
    /// `Transaction+Deferred.swift`). Unchecked, as `state` is.
    @exclusivity(unchecked) var queued = ActionQueue()
    /// The effects on their way to their tasks without the turn's queue.
    @exclusivity(unchecked) var effects = EffectStarts()

    var isOpen: Bool { state.isOpen }
    var isBatch: Bool { state.batch.isOpen }
    var actionName: String { state.actionName }

    var isRunningBatchAction: Bool {
        get { state.batch.isRunningAction }
        set { state.batch.isRunningAction = newValue }
    }

    /// Whether a handler is running now.
    var isRunningHandler: Bool { !state.running.isEmpty }

    /// Whether the transaction's derive stage runs: computed stores are derived from the staged sources.
    var isDeriving: Bool {
        get { state.isDeriving }
        set { state.isDeriving = newValue }
    }

    /// The store types whose changes the running batch staged.
    var stagedStoreIDs: Set<ObjectIdentifier> { state.batch.stagedStoreIDs }

    /// How many transactions committed: a caller compares two readings to tell whether its action did.
    var commits: UInt64 { state.commits }

    /// Whether step `step` has committed: its observers, and its middleware after `next`, run now.
    func hasCommitted(step: UInt64) -> Bool { state.committedStep == step }

    /// The handler call running now, `0` for none: an ``Effects`` is valid only during its own call.
    var handlerCall: UInt64 { state.handlerCall }

    /// The store whose handler is running now (the innermost), for error messages.
    var runningStoreName: String? { state.running.last.flatMap { state.list?.routes[$0].registration.name } }

    /// Opens a batch.
    func beginBatch() {
        state.isOpen = true
        state.batch.isOpen = true
    }

    /// Records an error; the first one fails the transaction.
    func fail(_ error: any Error) {
        if state.failure == nil { state.failure = error }
    }

    /// Adds one of the batch's actions to the list its middleware and journal are given at its commit.
    func appendToBatch(_ action: AnyAction) {
        state.batch.actions.append(action)
    }

    /// Takes the batch's actions, in order.
    func takeBatchActions() -> [AnyAction] {
        state.batch.takeActions()
    }

    /// Runs every handler of `list` with `runner`, in order; `waitFor` may run some earlier.
    ///
    /// - Parameters:
    ///   - name: The action's name, for error messages.
    ///   - list: The action's routes, every store of which exists.
    ///   - runner: Runs a handler on its store, for this action.
    /// - Throws: The first error a handler threw: the transaction is then failed.
    func runHandlers(_ name: String, through list: RouteList, with runner: (Handler, AnyObject) -> HandlerOutcome)
        throws
    {
        state.isOpen = true
        state.actionName = name
        let count = list.routes.count
        state.unretainedList = Unmanaged.passUnretained(list)
        // NB: one store alone commits at once; several stage, so that they commit together.
        state.stages = state.batch.isOpen || count > 1
        if state.progress.count == count {
            for index in 0..<count { state.progress[index] = .pending }
        } else {
            state.progress = ContiguousArray(repeating: .pending, count: count)
        }
        defer {
            // NB: a batch's changes are staged in `staged`; an action's, along its list.
            if state.batch.isOpen { state.unretainedList = nil }
        }
        if count > 1 {
            // NB: kept for `waitFor`, which runs a handler of this list early, and only while the handlers run:
            // it does not escape. With one route, `waitFor` never runs another handler.
            try withoutActuallyEscaping(runner) { runner in
                let outer = state.runner
                state.runner = runner
                defer { state.runner = outer }
                try runRoutes(count, of: list, with: runner)
            }
        } else {
            try runRoutes(count, of: list, with: runner)
        }
    }

    /// Runs the pending handlers of the first `count` routes of `list` with `runner`, in order.
    @inline(__always)
    private func runRoutes(_ count: Int, of list: RouteList, with runner: (Handler, AnyObject) -> HandlerOutcome)
        throws
    {
        guard !list.derivations.isEmpty else { return try runPending(0..<count, of: list, with: runner) }
        // NB: the handlers first; then the derive stage: the computed stores that follow the handlers' stores,
        // in dependency order. A batch derives once, before it commits (`Dispatcher.deriveBatch()`).
        for index in 0..<count where state.failure == nil && !list.routes[index].isDerivation {
            if state.progress[index] == .pending { runHandler(at: index, of: list, with: runner) }
        }
        if !state.batch.isOpen {
            state.isDeriving = true
            for index in list.derivations where state.failure == nil && state.progress[index] == .pending {
                runHandler(at: index, of: list, with: runner)
            }
            state.isDeriving = false
        }
        if let failure = state.failure { throw failure }
    }

    /// Runs the pending handlers of the routes of `list` in `range` with `runner`, in order, until one fails;
    /// throws the transaction's failure.
    @inline(__always)
    private func runPending(
        _ range: Range<Int>, of list: RouteList, with runner: (Handler, AnyObject) -> HandlerOutcome
    ) throws {
        var index = range.lowerBound
        while index < range.upperBound, state.failure == nil {
            if state.progress[index] == .pending { runHandler(at: index, of: list, with: runner) }
            index += 1
        }
        if let failure = state.failure { throw failure }
    }

    /// Runs the handler of the store with `id` now, unless it ran already (``Store/waitFor(_:)``).
    ///
    /// - Returns: That store, or `nil` when no store with `id` handles this action.
    /// - Throws: ``FluxionError/waitForCycle(_:)`` when that store is waiting
    ///   already, or the error its handler threw.
    func waitFor(_ id: ObjectIdentifier) throws -> AnyObject? {
        // NB: the dispatch running the action holds its list: its routes and stores are lent without reference counts.
        guard let unretainedList = state.unretainedList else { return nil }
        switch unretainedList._withUnsafeGuaranteedRef({ runFirst(id, of: $0) }) {
        case .notReached: return nil
        case .failed(let error): throw error
        case .ran(let store): return store
        }
    }

    /// What ``waitFor(_:)`` found.
    private enum Waited {
        case notReached
        case failed(any Error)
        case ran(AnyObject?)
    }

    private func runFirst(_ id: ObjectIdentifier, of list: RouteList) -> Waited {
        guard let index = list.index(of: id) else { return .notReached }
        switch state.progress[index] {
        case .pending:
            // NB: the dispatcher keeps its transaction: it is lent to the runner without a reference count.
            let transaction = Unmanaged.passUnretained(self)
            if state.failure == nil {
                runHandler(at: index, of: list) { handler, store in
                    transaction._withUnsafeGuaranteedRef { $0.runWaited(handler, on: store) }
                }
            }
        case .running:
            let running = state.running
            let path = (running[(running.firstIndex(of: index) ?? 0)...] + [index]).map {
                list.routes[$0].registration.name
            }
            return .failed(FluxionError.waitForCycle(path))
        case .done, .heard:
            break
        }
        if let failure = state.failure { return .failed(failure) }
        unowned(unsafe) let route = list.routes[index]
        return .ran(route.unretainedStore?.takeUnretainedValue())
    }

    /// Runs a handler that a `waitFor` runs early, as the running action's dispatch runs its handlers.
    private func runWaited(_ handler: Handler, on store: AnyObject) -> HandlerOutcome {
        // NB: a pending route means several routes, so the transaction holds the runner.
        guard let runner = state.runner else {
            return .failed(FluxionError.waitForOutsideDispatch(typeName(type(of: store))))
        }
        return runner(handler, store)
    }

    /// Stages a change of `store` made outside any handler: a batch's inline mutation.
    func mutate(_ store: AnyObject, of registration: Registration, with change: (AnyObject) -> HandlerOutcome) throws {
        state.isOpen = true
        if let failure = state.failure { throw failure }
        state.batch.stage(store, order: registration.order, operations: registration.operations)
        if case .failed(let error) = change(store) {
            fail(error)
            throw error
        }
    }

    /// Ends the transaction of step `step`: commits every staged change or, after a failure, rolls every one back.
    ///
    /// - Returns: The changes to tell the observers: after a commit, ``moveQueued(_:)``
    ///   has the actions the transaction dispatched, then ``deliver(_:as:tracing:)`` tells them.
    /// - Throws: The failure that rolled it back; the actions it dispatched are then dropped.
    func end(step: UInt64) throws -> PendingDelivery {
        state.isOpen = false
        state.batch.isOpen = false
        // NB: the lent list leaves the transaction here, on every path: into the delivery, or dropped.
        defer { state.unretainedList = nil }
        guard let failure = state.failure.take() else {
            state.commits &+= 1
            state.committedStep = step
            state.batch.commitStaged()
            return PendingDelivery(
                unretainedList: commitList() ? state.unretainedList : nil, hasStaged: state.batch.hasStaged)
        }
        state.batch.rollBackStaged()
        if state.stages, let list = state.list {
            for index in 0..<list.routes.count where state.progress[index] != .pending {
                let route = list.routes[index]
                if let store = route.store { route.operations.rollback(store) }
            }
        }
        dropQueued()
        throw failure
    }

    private func runHandler(at index: Int, of list: RouteList, with runner: (Handler, AnyObject) -> HandlerOutcome) {
        // NB: `list` keeps its routes, their handlers and stores alive throughout: they are lent
        // without reference counts, which cost on every dispatch.
        unowned(unsafe) let route = list.routes[index]
        // NB: `ready(_:)` made every store of the list before the transaction began.
        guard let store = route.unretainedStore else { return }
        if state.batch.isOpen {
            state.batch.stage(
                store.takeUnretainedValue(), order: route.registration.order, operations: route.operations)
        } else if state.stages {
            store._withUnsafeGuaranteedRef { route.operations.stage($0) }
        }
        state.progress[index] = .running
        state.running.append(index)
        let outerCall = state.handlerCall
        state.lastHandlerCall &+= 1
        state.handlerCall = state.lastHandlerCall
        defer { state.handlerCall = outerCall }
        let handler = Unmanaged.passUnretained(route)._withUnsafeGuaranteedRef { $0.runningHandler }
        let outcome = withExtendedLifetime(list) {
            handler._withUnsafeGuaranteedRef { handler in
                store._withUnsafeGuaranteedRef { store in runner(handler, store) }
            }
        }
        state.running.removeLast()
        state.progress[index] = .done
        switch outcome {
        case .failed(let error):
            fail(error)
        case .committed(let delivers):
            // NB: a one-store action committed at once; it is delivered after the transaction ends.
            if delivers { state.progress[index] = .heard }
        case .staged:
            break
        }
    }
}
