/// The progress of the one action a dispatcher is running: which stores have handled it.
///
/// A dispatcher keeps one context and reuses its buffers for every action.
/// Only the thread holding the dispatch turn touches it.
final class DispatchContext {
    private enum Progress {
        case pending
        case running
        case done((any Error)?)
    }

    @exclusivity(unchecked) private var routes: [Route] = []
    @exclusivity(unchecked) private(set) var stores: [any StoreRuntime] = []
    @exclusivity(unchecked) private var progress: [Progress] = []
    /// The routes whose handlers are running, outermost first (a `waitFor` nests one).
    @exclusivity(unchecked) private var waiting: [Int] = []
    /// The routes whose handlers ran, in the order they ran.
    @exclusivity(unchecked) private var handled: [Int] = []
    @exclusivity(unchecked) private var runner: ((Int) -> HandlerOutcome)?

    /// The first error a handler threw.
    @exclusivity(unchecked) private(set) var firstError: (any Error)?
    /// Whether a store that handled the action has observers.
    @exclusivity(unchecked) private(set) var isObserved = false

    /// Whether a handler of the current action is running now.
    var isRunningHandler: Bool { !waiting.isEmpty }

    /// Starts an action through `routes`; `stores` holds their stores, in the same order.
    func begin(_ routes: [Route]) {
        self.routes = routes
        progress.append(contentsOf: repeatElement(.pending, count: routes.count))
    }

    /// Adds the next route's store; call once per route, in order, after `begin`.
    func append(_ store: any StoreRuntime) {
        stores.append(store)
    }

    /// Runs every handler with `runner`, in route order; `waitFor` may run some earlier.
    func runAll(with runner: (Int) -> HandlerOutcome) {
        withoutActuallyEscaping(runner) { runner in
            self.runner = runner
            for index in progress.indices {
                if case .pending = progress[index] { run(index) }
            }
            self.runner = nil
        }
    }

    /// Runs the handler of the store with `id` now, unless it ran already.
    ///
    /// - Returns: That store, or `nil` when no store with `id` handles this action.
    /// - Throws: ``FluxionError/waitForCycle(_:)`` when that store is waiting
    ///   already, or the error its handler threw.
    func waitFor(_ id: ObjectIdentifier) throws -> (any StoreRuntime)? {
        guard let index = routes.firstIndex(where: { $0.registration.id == id }) else { return nil }
        switch progress[index] {
        case .pending:
            run(index)
            if case .done(let error?) = progress[index] { throw error }
        case .running:
            let start = waiting.firstIndex(of: index) ?? 0
            let path = (waiting[start...] + [index]).map { routes[$0].registration.name }
            throw FluxionError.waitForCycle(path)
        case .done(let error):
            if let error { throw error }
        }
        return stores[index]
    }

    /// Calls `body` with each store whose handler ran, in the order they ran.
    func forEachHandledStore(_ body: (any StoreRuntime) -> Void) {
        for index in handled { body(stores[index]) }
    }

    /// Empties the context for the next action, keeping its buffers.
    func end() {
        routes = []
        stores.removeAll(keepingCapacity: true)
        progress.removeAll(keepingCapacity: true)
        handled.removeAll(keepingCapacity: true)
        firstError = nil
        isObserved = false
    }

    private func run(_ index: Int) {
        guard let runner else { return }
        progress[index] = .running
        waiting.append(index)
        let outcome = runner(index)
        waiting.removeLast()
        progress[index] = .done(outcome.error)
        handled.append(index)
        if firstError == nil { firstError = outcome.error }
        if outcome.isObserved { isObserved = true }
    }
}
