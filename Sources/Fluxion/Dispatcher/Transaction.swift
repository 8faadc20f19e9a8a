// One dispatch, from the caller to the observers: each layer has a verb of its own. The names in backticks
// are functions and types (`.ci/diagram-names.py` checks that each exists). From `dispatch` to the handler, a
// debug build's stack holds these functions, the closures that lend the store and the handler's body without
// reference counts, and the handler table's closures (Tests/FluxionTests/DispatchDepthTests counts them).
//
//  caller            Dispatcher                                   Transaction              stores, observers
//    │ `dispatch`                                                     │                          │
//    ├─────────────▶ `receive`: under the lock, `admit` decides where │                          │
//    │               the action goes (Dispatcher+Admission.swift):    │                          │
//    │               refused · joins the running transaction ·        │                          │
//    │               queued · held · waits for the turn · runs now    │                          │
//    │               │ runs now, holding the turn; with middleware    │                          │
//    │               │ or a journal, first `forward`: each middleware │                          │
//    │               │ (`MiddlewareRun.pass` ▶ … ▶ `reachStores`),    │                          │
//    │               │ then the journal's `JournalRecorder.record`    │                          │
//    │               `transact` ─────────────────────────────────────▶ `Transaction.runHandlers`│
//    │                 (one store's change commits at once;           ├─ `Transaction.runHandler`▶ `Handler.run`:
//    │                 several stores' are staged)                    │  for each store, then    │ `Store.apply`
//    │                                                                │  the derive stage (a     │ stages or commits
//    │                                                                │  `Transaction.waitFor`   │
//    │                                                                │  runs one early)         │
//    │               `transact` ◀──────────────────────────────────── `Transaction.end`: commits every staged
//    │               │                                                change, or rolls every one back
//    │               ├─ `moveTransactionActions`: queued actions move │                          │
//    │               │   to the turn's queue                          │                          │
//    │               └─ deliver ─────────────────────────────────────▶ `Transaction.deliver` ──▶ observers
//    │               `drainQueueAndEndTurn`: the actions queued       │                          │
//    │◀───────────── meanwhile, in order; then the turn is given up   │                          │
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
}
