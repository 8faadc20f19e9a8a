/// What the dispatcher needs of a store beyond its handlers, with its state type erased.
protocol StoreRuntime: AnyObject, Sendable {
    /// Records the dispatcher that created the store; `false` when a dispatcher owns it already.
    func attach(to dispatcher: Dispatcher) -> Bool

    /// Adds, once, an observer that passes each change on to `relay`.
    func relayChanges(to relay: ChangeRelay)

    /// The current state, as the first change for an observer that asked for it.
    func currentStateChange() -> AnyStoreChange

    /// Whether the running transaction staged a change of the state (an equal state, when it is
    /// `Equatable`, is none); the turn holder asks.
    var hasStagedChange: Bool { get }

    /// Whether the store is computed from sources that a reader inside the running step sees changed; the
    /// turn holder asks.
    var derivesFromChanges: Bool { get }

    /// Whether the store's handler runs stage their changes now; the turn holder asks.
    var isStagingChanges: Bool { get }
}
