/// One observer of a store: a weakly held owner and the closure to call with it.
final class Observer<State: Sendable>: Sendable {
    weak let owner: (AnyObject & Sendable)?
    private let body: @Sendable (AnyObject & Sendable, StoreChange<State>) -> Void

    init(
        owner: AnyObject & Sendable,
        body: @escaping @Sendable (AnyObject & Sendable, StoreChange<State>) -> Void
    ) {
        self.owner = owner
        self.body = body
    }

    /// Whether the owner is gone, so the observer can be dropped.
    var isStale: Bool { owner == nil }

    /// Calls the closure if the owner is alive; returns whether it was.
    func notify(_ change: StoreChange<State>) -> Bool {
        guard let owner else { return false }
        body(owner, change)
        return true
    }
}
