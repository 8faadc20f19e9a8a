/// Everything a dispatcher shares between threads, kept as one value inside its lock.
struct DispatcherState {
    /// Which store types handle which names, and which stores exist.
    var index = RouteIndex()
    /// Who holds the dispatch turn, and what waits for it.
    var turn = TurnState()
    /// The middleware chain, outermost first.
    var middleware = MiddlewareChain()
    /// Whether every store forwards its changes to the whole-dispatcher observers: set for
    /// good by the first of them.
    var forwardsChanges = false
    /// How many actions no store handled.
    var deadLetters = 0
    var deadLetterHandler: (@Sendable (AnyAction) -> Void)?
    var queuedErrorHandler: (@Sendable (AnyAction, any Error) -> Void)?

    /// Whether `thread` may act for the turn holder: it holds the turn, or runs a factory the holder waits for.
    func admits(_ thread: ThreadID) -> Bool {
        turn.admits(thread, isCreatingForHolder: isCreatingForHolder(thread))
    }

    /// Whether `thread` runs a store factory while the turn holder waits for a store.
    func isCreatingForHolder(_ thread: ThreadID) -> Bool {
        turn.holderAwaitsCreation && index.isCreating(thread)
    }
}

/// A dispatcher's middleware, outermost first.
struct MiddlewareChain {
    private(set) var entries: [MiddlewareEntry] = []
    private var nextID = 0
    /// Whether a middleware of the chain observes changes, so that they are gathered for it.
    private(set) var observesChanges = false

    /// The entries, or `nil` when there are none: a dispatch then skips the chain at no cost.
    var chain: [MiddlewareEntry]? { entries.isEmpty ? nil : entries }

    mutating func append(_ middleware: any Middleware, observesChanges: Bool) -> MiddlewareID {
        let id = MiddlewareID(rawValue: nextID)
        nextID += 1
        entries.append(MiddlewareEntry(id: id, middleware: middleware, observesChanges: observesChanges))
        self.observesChanges = self.observesChanges || observesChanges
        return id
    }

    /// Removes a middleware; returns it, for the caller to release unlocked.
    mutating func remove(_ id: MiddlewareID) -> [MiddlewareEntry] {
        let removed = entries.filter { $0.id == id }
        entries.removeAll { $0.id == id }
        observesChanges = entries.contains(where: \.observesChanges)
        return removed
    }
}
