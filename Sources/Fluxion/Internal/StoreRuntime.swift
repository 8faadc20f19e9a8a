/// What the dispatcher needs of a store, with its state type erased.
protocol StoreRuntime: AnyObject, Sendable {
    /// Records the dispatcher that created the store.
    func attach(to dispatcher: Dispatcher)

    /// Runs one handler on a copy of the state and commits the copy if the
    /// handler returns; returns the handler's error otherwise.
    func run(_ handler: any ErasedHandler, for action: AnyAction) -> (any Error)?

    /// Tells the observers about the change the last `run` made, if any.
    func deliverPendingChange(for action: AnyAction)
}
