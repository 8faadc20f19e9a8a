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

/// A middleware in a dispatcher's chain.
struct MiddlewareEntry: Sendable {
    let id: MiddlewareID
    let middleware: any Middleware
    /// `middleware.observesChanges`, read once, when it was added.
    let observesChanges: Bool
}
