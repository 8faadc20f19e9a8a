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
///
/// NB: only the thread holding the dispatch turn touches it, so its fields
/// skip the run-time exclusivity checks (as a lock-guarded value's do).
final class Transaction: @unchecked Sendable {  // touched only by the thread holding the dispatch turn
    private enum Progress {
        case pending
        case running
        case done
        /// Done, committed, and someone hears the change.
        case heard
    }

    /// A store of a batch whose change waits for the commit, in registration order.
    private struct Staged {
        let order: Int
        let store: AnyObject
        let operations: StoreOperations
        /// Whether its change is committed and someone hears it.
        var delivers = false
    }

    /// Whether a transaction is open: from its first handler to its end.
    @exclusivity(unchecked) private(set) var isOpen = false
    /// Whether the transaction is a batch: open across actions, every change staged.
    @exclusivity(unchecked) private(set) var isBatch = false
    /// The batch's actions, in order.
    @exclusivity(unchecked) var batchActions: [AnyAction] = []
    /// The first error: it rolls the whole transaction back.
    @exclusivity(unchecked) private(set) var failure: (any Error)?
    /// Actions the transaction's code dispatched; they run after it commits, or are dropped with it.
    @exclusivity(unchecked) var queued = ActionQueue()
    /// Whether the middleware chain is running an action: the turn is then kept throughout.
    @exclusivity(unchecked) var isInMiddleware = false

    /// The routes of the action running now, with their stores; kept until its changes are delivered.
    @exclusivity(unchecked) private var list: RouteList?
    @exclusivity(unchecked) private var progress: ContiguousArray<Progress> = []
    /// The routes whose handlers are running, outermost first (a `waitFor` nests one).
    @exclusivity(unchecked) private var running: ContiguousArray<Int> = []
    /// The action running now, with its payload type erased, for `waitFor` to run other handlers.
    @exclusivity(unchecked) private(set) var action: AnyAction?
    /// The name of the action running now, or last run.
    @exclusivity(unchecked) private(set) var actionName = ""
    /// Whether the running action stages its changes.
    @exclusivity(unchecked) private var stages = false
    /// The stores whose changes a batch staged, in registration order.
    @exclusivity(unchecked) private var staged: [Staged] = []

    /// Whether a handler is running now.
    var isRunningHandler: Bool { !running.isEmpty }

    /// The store whose handler is running now (the innermost), for error messages.
    var runningStoreName: String? { running.last.flatMap { list?.routes[$0].registration.name } }

    /// Opens a batch.
    func beginBatch() {
        isOpen = true
        isBatch = true
    }

    /// Records an error of the batch's code; the first one fails the batch.
    func fail(_ error: any Error) {
        if failure == nil { failure = error }
    }

    /// Runs every handler of `list` with `runner`, in order; `waitFor` may run some earlier.
    ///
    /// - Parameters:
    ///   - name: The action's name, for error messages.
    ///   - action: The action, for `waitFor` to run handlers of other routes;
    ///     needed only when there are several routes.
    ///   - list: The action's routes, every store of which exists.
    /// - Throws: The first error a handler threw: the transaction is then failed.
    func run(
        _ name: String,
        _ action: AnyAction?,
        through list: RouteList,
        with runner: (Handler, AnyObject) -> HandlerOutcome
    ) throws {
        isOpen = true
        actionName = name
        if action != nil { self.action = action }
        self.list = list
        let count = list.routes.count
        // NB: one store alone commits at once; several stage, so that they commit together.
        stages = isBatch || count > 1
        if progress.count == count {
            for index in 0..<count { progress[index] = .pending }
        } else {
            progress = ContiguousArray(repeating: .pending, count: count)
        }
        defer {
            if self.action != nil { self.action = nil }
            // NB: a batch's changes are staged in `staged`; an action's, along its list.
            if isBatch { self.list = nil }
        }
        var index = 0
        while index < count, failure == nil {
            if progress[index] == .pending { run(index, of: list, with: runner) }
            index += 1
        }
        if let failure { throw failure }
    }

    /// Runs the handler of the store with `id` now, unless it ran already.
    ///
    /// - Returns: That store, or `nil` when no store with `id` handles this action.
    /// - Throws: ``FluxionError/waitForCycle(_:)`` when that store is waiting
    ///   already, or the error its handler threw.
    func waitFor(_ id: ObjectIdentifier, runner: (Handler, AnyObject) -> HandlerOutcome) throws -> AnyObject? {
        guard let list, let index = list.routes.firstIndex(where: { $0.registration.id == id }) else { return nil }
        switch progress[index] {
        case .pending:
            if failure == nil { run(index, of: list, with: runner) }
        case .running:
            let start = running.firstIndex(of: index) ?? 0
            let path = (running[start...] + [index]).map { list.routes[$0].registration.name }
            throw FluxionError.waitForCycle(path)
        case .done, .heard:
            break
        }
        if let failure { throw failure }
        return list.routes[index].store
    }

    /// Stages a change of `store` made outside any handler: a batch's inline mutation.
    func mutate(_ store: AnyObject, of registration: Registration, with change: (AnyObject) -> HandlerOutcome) throws {
        isOpen = true
        if let failure { throw failure }
        stage(store, order: registration.order, operations: registration.operations)
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
            for index in staged.indices {
                staged[index].delivers = staged[index].operations.commit(staged[index].store)
            }
            commitList()
            return nil
        }
        for store in staged { store.operations.rollback(store.store) }
        if !staged.isEmpty { staged.removeAll(keepingCapacity: true) }
        if stages, let list {
            for index in 0..<list.routes.count where progress[index] != .pending {
                if let store = list.routes[index].store { list.routes[index].registration.operations.rollback(store) }
            }
        }
        list = nil
        var dropped = ActionQueue()
        swap(&dropped, &queued)
        return failure
    }

    /// Commits the staged changes of the action's stores; keeps the list only if someone hears one.
    private func commitList() {
        guard let list else { return }
        var isHeard = false
        for index in 0..<list.routes.count {
            if stages, progress[index] == .done, let store = list.routes[index].store,
                list.routes[index].registration.operations.commit(store)
            {
                progress[index] = .heard
            }
            isHeard = isHeard || progress[index] == .heard
        }
        if !isHeard { self.list = nil }
    }

    /// Whether a committed change may wait for ``deliver(_:)``.
    var hasDeliveries: Bool { list != nil || !staged.isEmpty }

    /// Tells the observers of each store the transaction changed, in registration order.
    func deliver(_ action: AnyAction) {
        if let list {
            self.list = nil
            for index in 0..<list.routes.count where progress[index] == .heard {
                if let store = list.routes[index].store {
                    list.routes[index].registration.operations.deliver(store, action)
                }
            }
        }
        guard !staged.isEmpty else { return }
        for index in staged.indices where staged[index].delivers {
            staged[index].operations.deliver(staged[index].store, action)
        }
        staged.removeAll(keepingCapacity: true)
    }

    private func run(_ index: Int, of list: RouteList, with runner: (Handler, AnyObject) -> HandlerOutcome) {
        let route = list.routes[index]
        // NB: `ready(_:)` made every store of the list before the transaction began.
        guard let store = route.store else { return }
        if isBatch {
            stage(store, order: route.registration.order, operations: route.registration.operations)
        } else if stages {
            route.registration.operations.stage(store)
        }
        progress[index] = .running
        running.append(index)
        let outcome = runner(route.handler, store)
        running.removeLast()
        progress[index] = .done
        switch outcome {
        case .failed(let error):
            fail(error)
        case .committed(let delivers):
            // NB: a one-store action committed at once; it is delivered after the transaction ends.
            if delivers { progress[index] = .heard }
        case .staged:
            break
        }
    }

    /// Makes `store` stage its changes, once, and lists it in registration order.
    private func stage(_ store: AnyObject, order: Int, operations: StoreOperations) {
        guard !staged.contains(where: { $0.store === store }) else { return }
        operations.stage(store)
        let entry = Staged(order: order, store: store, operations: operations)
        // NB: stores mostly stage in registration order; `waitFor` and batches may not.
        if let last = staged.last, last.order > order {
            staged.insert(entry, at: staged.lastIndex { $0.order < order }.map { $0 + 1 } ?? 0)
        } else {
            staged.append(entry)
        }
    }
}
