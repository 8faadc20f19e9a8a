/// One action, or one batch, as a unit: every change it makes commits together, or none does.
///
/// The transaction runs the action's handlers (``Store/waitFor(_:)`` may run
/// some early), stages their changes when more than one store could change,
/// and keeps the actions its handlers dispatch. Then it either commits every
/// staged state, in registration order, and hands those actions on, or rolls
/// every staged state back and drops them. A batch keeps one transaction open
/// across its actions and inline mutations.
///
/// A dispatcher keeps one transaction and reuses its buffers.
final class Transaction: @unchecked Sendable {  // touched only by the thread holding the dispatch turn
    private enum Progress {
        case pending
        case running
        case done
    }

    /// A store the transaction changed.
    private struct Touched {
        let order: Int
        let store: AnyObject
        let operations: StoreOperations
        /// Whether its change is committed and someone hears it.
        var delivers = false
    }

    /// Whether a transaction is open: from its first handler to its end.
    private(set) var isOpen = false
    /// Whether the transaction is a batch: open across actions, every change staged.
    private(set) var isBatch = false
    /// The batch's actions, in order.
    var batchActions: [AnyAction] = []
    /// The first error: it rolls the whole transaction back.
    private(set) var failure: (any Error)?
    /// Actions the transaction's code dispatched; they run after it commits, or are dropped with it.
    var queued = ActionQueue()
    /// Whether the middleware chain is running an action: the turn is then kept throughout.
    var isInMiddleware = false

    /// The routes of the action running now, and their stores.
    private var routes: [Route] = []
    private var stores: [any StoreRuntime] = []
    private var progress: ContiguousArray<Progress> = []
    /// The routes whose handlers are running, outermost first (a `waitFor` nests one).
    private var running: ContiguousArray<Int> = []
    /// The action running now, with its payload type erased, for `waitFor` to run other handlers.
    private(set) var action: AnyAction?
    /// The name of the action running now, or last run.
    private(set) var actionName = ""
    /// Whether the running action stages its changes.
    private var stages = false
    /// The stores changed, in registration order.
    private var touched: [Touched] = []

    /// Whether a handler is running now.
    var isRunningHandler: Bool { !running.isEmpty }

    /// The store whose handler is running now (the innermost), for error messages.
    var runningStoreName: String? { running.last.map { routes[$0].registration.name } }

    /// Opens a batch.
    func beginBatch() {
        isOpen = true
        isBatch = true
    }

    /// Records an error of the batch's code; the first one fails the batch.
    func fail(_ error: any Error) {
        if failure == nil { failure = error }
    }

    /// Runs every handler of `routes` on `stores` with `runner`, in order; `waitFor` may run some earlier.
    ///
    /// - Parameters:
    ///   - name: The action's name, for error messages.
    ///   - action: The action, for `waitFor` to run handlers of other routes;
    ///     needed only when there are several routes.
    /// - Throws: The first error a handler threw: the transaction is then failed.
    func run(
        _ name: String,
        _ action: AnyAction?,
        through routes: [Route],
        on stores: [any StoreRuntime],
        with runner: (Route, AnyObject) -> HandlerOutcome
    ) throws {
        isOpen = true
        actionName = name
        self.action = action
        self.routes = routes
        self.stores = stores
        // NB: one store alone commits at once; several stage, so that they commit together.
        stages = isBatch || routes.count > 1
        progress.removeAll(keepingCapacity: true)
        for _ in routes { progress.append(.pending) }
        defer {
            self.action = nil
            self.routes = []
            self.stores = []
        }
        for index in progress.indices where progress[index] == .pending && failure == nil {
            run(index, with: runner)
        }
        if let failure { throw failure }
    }

    /// Runs the handler of the store with `id` now, unless it ran already.
    ///
    /// - Returns: That store, or `nil` when no store with `id` handles this action.
    /// - Throws: ``FluxionError/waitForCycle(_:)`` when that store is waiting
    ///   already, or the error its handler threw.
    func waitFor(_ id: ObjectIdentifier, runner: (Route, AnyObject) -> HandlerOutcome) throws -> AnyObject? {
        guard let index = routes.firstIndex(where: { $0.registration.id == id }) else { return nil }
        switch progress[index] {
        case .pending:
            if failure == nil { run(index, with: runner) }
        case .running:
            let start = running.firstIndex(of: index) ?? 0
            let path = (running[start...] + [index]).map { routes[$0].registration.name }
            throw FluxionError.waitForCycle(path)
        case .done:
            break
        }
        if let failure { throw failure }
        return stores[index]
    }

    /// Stages a change of `store` made outside any handler: a batch's inline mutation.
    func mutate(_ store: AnyObject, of registration: Registration, with change: (AnyObject) -> HandlerOutcome) throws {
        isOpen = true
        if let failure { throw failure }
        touch(store, order: registration.order, operations: registration.operations)
        if case .failed(let error) = change(store) {
            fail(error)
            throw error
        }
    }

    /// Ends the transaction: commits every staged change or, after a failure, rolls every one back.
    ///
    /// - Returns: The failure that rolled it back, if any; the actions it
    ///   dispatched are then dropped. After a commit, they wait in ``queued``
    ///   and the changes in ``deliver(_:)``.
    func end() -> (any Error)? {
        isOpen = false
        isBatch = false
        guard let failure = failure.take() else {
            for index in touched.indices where !touched[index].delivers {
                touched[index].delivers = touched[index].operations.commit(touched[index].store)
            }
            return nil
        }
        for store in touched where !store.delivers { store.operations.rollback(store.store) }
        touched.removeAll(keepingCapacity: true)
        var dropped = ActionQueue()
        swap(&dropped, &queued)
        return failure
    }

    /// Whether a committed change waits for ``deliver(_:)``.
    var hasDeliveries: Bool { !touched.isEmpty }

    /// Tells the observers of each store the transaction changed, in registration order.
    func deliver(_ action: AnyAction) {
        for store in touched where store.delivers { store.operations.deliver(store.store, action) }
        touched.removeAll(keepingCapacity: true)
    }

    private func run(_ index: Int, with runner: (Route, AnyObject) -> HandlerOutcome) {
        let route = routes[index]
        let store = stores[index]
        if stages { touch(store, order: route.registration.order, operations: route.registration.operations) }
        progress[index] = .running
        running.append(index)
        let outcome = runner(route, store)
        running.removeLast()
        progress[index] = .done
        switch outcome {
        case .failed(let error):
            fail(error)
        case .committed(let delivers):
            // NB: a one-store action committed at once; it is delivered after the transaction ends.
            if delivers {
                touched.append(
                    Touched(
                        order: route.registration.order, store: store, operations: route.registration.operations,
                        delivers: true))
            }
        case .staged:
            break
        }
    }

    /// Makes `store` stage its changes, once, and lists it in registration order.
    private func touch(_ store: AnyObject, order: Int, operations: StoreOperations) {
        guard !touched.contains(where: { $0.store === store }) else { return }
        operations.stage(store)
        let position = touched.lastIndex { $0.order < order }.map { $0 + 1 } ?? 0
        touched.insert(Touched(order: order, store: store, operations: operations), at: position)
    }
}
