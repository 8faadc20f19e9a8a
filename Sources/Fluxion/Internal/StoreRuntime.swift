/// What the dispatcher needs of a store beyond its handlers, with its state type erased.
protocol StoreRuntime: AnyObject, Sendable {
    /// Records the dispatcher that created the store; `false` when a dispatcher owns it already.
    func attach(to dispatcher: Dispatcher) -> Bool

    /// Adds, once, an observer that passes each change on to `relay`.
    func forwardChanges(to relay: ChangeRelay)

    /// The current state, as the first change for an observer that asked for it.
    func currentStateChange() -> AnyStoreChange

    /// Keeps the state from before a batch, whose changes the store's observers hear at its end.
    func beginBatch()

    /// Ends a batch: tells the observers of the one change from the kept state
    /// to the current one, caused by `action`; with no action, goes back to the kept state.
    func finishBatch(committing action: AnyAction?)
}
