/// The state of the one action a dispatcher is running: which stores have handled it.
///
/// Owned by the thread holding the dispatcher's dispatch turn; never shared.
final class DispatchContext {
    private enum Progress {
        case pending
        case running
        case done((any Error)?)
    }

    let action: AnyAction
    private let routes: [Route]
    private let stores: [any StoreRuntime]
    private var progress: [Progress]
    private var waiting: [Int] = []

    /// The stores whose handlers ran, in the order they ran.
    private(set) var handledStores: [any StoreRuntime] = []
    /// The first error a handler threw.
    private(set) var firstError: (any Error)?

    init(action: AnyAction, routes: [Route], stores: [any StoreRuntime]) {
        self.action = action
        self.routes = routes
        self.stores = stores
        progress = Array(repeating: .pending, count: routes.count)
    }

    /// Whether a handler of this action is running now.
    var isRunningHandler: Bool { !waiting.isEmpty }

    /// Runs every handler that has not run yet, in index order.
    func runAll() {
        for index in routes.indices {
            if case .pending = progress[index] { run(index) }
        }
    }

    /// Runs the handler of the store with `id` now, unless it already ran.
    ///
    /// - Returns: `false` when no store with `id` handles this action.
    /// - Throws: ``FluxionError/waitForCycle(_:)`` when that store is waiting
    ///   already, or the error its handler threw.
    func waitFor(_ id: ObjectIdentifier) throws -> Bool {
        guard let index = routes.firstIndex(where: { $0.registration.id == id }) else { return false }
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
        return true
    }

    private func run(_ index: Int) {
        progress[index] = .running
        waiting.append(index)
        let error = stores[index].run(routes[index].handler, for: action)
        waiting.removeLast()
        progress[index] = .done(error)
        handledStores.append(stores[index])
        if firstError == nil { firstError = error }
    }
}
