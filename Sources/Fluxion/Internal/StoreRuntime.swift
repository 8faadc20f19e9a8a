/// What the dispatcher needs of a store, with its state type erased.
protocol StoreRuntime: AnyObject, Sendable {
    /// Records the dispatcher that created the store.
    func attach(to dispatcher: Dispatcher)

    /// Runs one handler on a copy of the state and commits the copy if the
    /// handler returns. Only the holder of the dispatch turn calls it.
    ///
    /// - Parameter erased: The action with its payload type erased, when the
    ///   dispatch was untyped; made on demand otherwise.
    func run<Payload>(_ handler: any RouteHandler, for action: Action<Payload>, erased: AnyAction?) -> HandlerOutcome

    /// Tells the observers about the change the last `run` made, if any.
    func deliverPendingChange(for action: AnyAction)
}

/// What running one store's handler did.
struct HandlerOutcome {
    /// The error the handler threw; the store's state was then left as it was.
    let error: (any Error)?
    /// Whether the store has observers waiting for the change.
    let isObserved: Bool
}
