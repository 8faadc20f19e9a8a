/// A dispatcher's middleware, outermost first, and the recorder of a journal, past the last.
struct MiddlewareChain {
    /// What an action passes through on its way to the stores.
    struct Passage {
        /// The version of the chain, or `nil` when it is empty: a dispatch then skips the chain at no cost.
        let middleware: UInt64?
        /// The recorder of the journal attached, which sees each action as it reaches the stores.
        let recorder: JournalRecorder?

        /// Whether the action meets neither middleware nor a recorder: it goes straight to its stores.
        var isEmpty: Bool { middleware == nil && recorder == nil }
    }

    private(set) var entries: [MiddlewareEntry] = []
    /// The recorder of the journal attached, if any, and its identifier.
    private(set) var recorder: (id: MiddlewareID, recorder: JournalRecorder)?
    private var nextID = 0
    /// Whether a middleware of the chain observes changes, so that they are gathered for it.
    private(set) var observesChanges = false

    /// Advanced by every change of the chain: a run of one version serves every action until the next.
    private(set) var version: UInt64 = 0

    /// The version of the chain, or `nil` when it is empty: a dispatch then skips the chain at no cost.
    var runVersion: UInt64? { entries.isEmpty ? nil : version }

    /// What an action dispatched now passes through.
    var passage: Passage { Passage(middleware: runVersion, recorder: recorder?.recorder) }

    /// Attaches a journal's recorder, replacing any other's.
    mutating func attach(_ recorder: JournalRecorder) -> MiddlewareID {
        let id = MiddlewareID(rawValue: nextID)
        nextID += 1
        self.recorder = (id, recorder)
        version &+= 1
        return id
    }

    mutating func append(_ middleware: any Middleware, observesChanges: Bool) -> MiddlewareID {
        let id = MiddlewareID(rawValue: nextID)
        nextID += 1
        entries.append(MiddlewareEntry.make(id: id, middleware: middleware, observesChanges: observesChanges))
        self.observesChanges = self.observesChanges || observesChanges
        version &+= 1
        return id
    }

    /// Removes a middleware, or a journal's recorder; returns it, for the caller to release unlocked.
    mutating func remove(_ id: MiddlewareID) -> [AnyObject] {
        if let attached = recorder, attached.id == id {
            recorder = nil
            version &+= 1
            return [attached.recorder]
        }
        let removed = entries.filter { $0.id == id }
        entries.removeAll { $0.id == id }
        observesChanges = entries.contains(where: \.observesChanges)
        version &+= 1
        return removed
    }
}

/// A middleware in a dispatcher's chain.
class MiddlewareEntry: @unchecked Sendable {  // immutable, and its middleware is `Sendable`
    let id: MiddlewareID
    let middleware: any Middleware
    /// `middleware.observesChanges`, read once, when it was added.
    let observesChanges: Bool

    fileprivate init(id: MiddlewareID, middleware: any Middleware, observesChanges: Bool) {
        self.id = id
        self.middleware = middleware
        self.observesChanges = observesChanges
    }

    /// Creates the entry of `middleware`.
    static func make(id: MiddlewareID, middleware: some Middleware, observesChanges: Bool) -> MiddlewareEntry {
        TypedMiddlewareEntry(id: id, middleware: middleware, observesChanges: observesChanges)
    }

    /// Passes an action to the middleware.
    func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
        try middleware.dispatch(action, next: next)
    }
}

/// The entry of a middleware of type `M`, which a dispatch calls where it is:
/// an `any Middleware` is copied out of the entry first.
private final class TypedMiddlewareEntry<M: Middleware>: MiddlewareEntry, @unchecked Sendable {  // immutable
    let typed: M

    init(id: MiddlewareID, middleware: M, observesChanges: Bool) {
        typed = middleware
        super.init(id: id, middleware: middleware, observesChanges: observesChanges)
    }

    override func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
        try typed.dispatch(action, next: next)
    }
}
