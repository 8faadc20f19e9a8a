/// The progress of the one action a dispatcher is running: which stores have handled it.
///
/// A dispatcher keeps one context and reuses its buffers for every action.
/// Only the thread holding the dispatch turn touches it.
final class DispatchContext {
    private enum Progress {
        case pending
        case running
        case done
    }

    @exclusivity(unchecked) private var routes: [Route] = []
    @exclusivity(unchecked) private var progress: ContiguousArray<Progress> = []
    /// The routes whose handlers are running, outermost first (a `waitFor` nests one).
    @exclusivity(unchecked) private var waiting: ContiguousArray<Int> = []
    /// The errors handlers threw, in the order they threw them.
    @exclusivity(unchecked) private var errors: [(route: Int, error: any Error)] = []
    /// The action running now, with its payload type erased, for `waitFor` to run other handlers.
    @exclusivity(unchecked) private(set) var action: AnyAction?

    /// Whether a store that handled the action has observers.
    @exclusivity(unchecked) private(set) var isObserved = false

    /// The batch running now, if any: it outlives each of its actions.
    @exclusivity(unchecked) var batch: BatchProgress?

    /// Whether the middleware chain is running an action: the dispatch then keeps its turn throughout.
    @exclusivity(unchecked) var isInMiddleware = false

    /// The first error a handler threw.
    var firstError: (any Error)? { errors.first?.error }

    /// Whether a handler of the current action is running now.
    var isRunningHandler: Bool { !waiting.isEmpty }

    /// Runs every handler of `routes` with `runner`, in order; `waitFor` may run some earlier.
    ///
    /// - Parameter action: The action, for `waitFor` to run handlers of other routes; needed only
    ///   when there are several routes.
    func run(_ action: AnyAction?, through routes: [Route], with runner: (Route) -> HandlerOutcome) {
        self.action = action
        self.routes = routes
        progress.removeAll(keepingCapacity: true)
        for _ in routes { progress.append(.pending) }
        for index in progress.indices where progress[index] == .pending {
            run(index, with: runner)
        }
    }

    /// Runs the handler of the store with `id` now, unless it ran already.
    ///
    /// - Returns: That store, or `nil` when no store with `id` handles this action.
    /// - Throws: ``FluxionError/waitForCycle(_:)`` when that store is waiting
    ///   already, or the error its handler threw.
    func waitFor(_ id: ObjectIdentifier, runner: (Route) -> HandlerOutcome) throws -> AnyObject? {
        guard let index = routes.firstIndex(where: { $0.registration.id == id }) else { return nil }
        switch progress[index] {
        case .pending:
            run(index, with: runner)
        case .running:
            let start = waiting.firstIndex(of: index) ?? 0
            let path = (waiting[start...] + [index]).map { routes[$0].registration.name }
            throw FluxionError.waitForCycle(path)
        case .done:
            break
        }
        if let failure = errors.first(where: { $0.route == index }) { throw failure.error }
        return routes[index].registration.instance
    }

    /// Tells the observers of each store whose handler ran, in registration order.
    func deliverChanges(for action: AnyAction) {
        for route in routes {
            if let store = route.registration.instance { route.handler.deliver(store, action) }
        }
    }

    /// Empties the context for the next action, keeping its buffers.
    func end() {
        action = nil
        routes = []
        errors.removeAll()
        isObserved = false
    }

    private func run(_ index: Int, with runner: (Route) -> HandlerOutcome) {
        if let batch, let store = routes[index].registration.instance { batch.enroll(store) }
        progress[index] = .running
        waiting.append(index)
        let outcome = runner(routes[index])
        waiting.removeLast()
        progress[index] = .done
        if let error = outcome.error { errors.append((index, error)) }
        if outcome.isObserved { isObserved = true }
    }
}
