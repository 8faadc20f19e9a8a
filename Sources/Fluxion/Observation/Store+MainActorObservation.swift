extension Store {
    /// Calls `handler` on the main actor with each change of this store while `owner` is alive.
    ///
    /// For views and view models isolated to the main actor, whatever thread dispatches:
    ///
    /// ```swift
    /// store.observeOnMainActor(owner: self) { owner, change in
    ///     owner.title = change.newState.title  // owner is a @MainActor view model
    /// }
    /// ```
    ///
    /// Calls are queued on the main queue in the order of the changes, so an
    /// older state never arrives after a newer one; a call is skipped if the
    /// owner is gone by then. The main queue must be serviced, as it is in an
    /// app, under an `async` `main`, or with `dispatchMain()`.
    ///
    /// - Parameters:
    ///   - owner: The object the observer lives as long as.
    ///   - sendingCurrentState: Whether to queue a first call with the current
    ///   state (``StoreChange/isCurrentState``); `false` by default.
    ///   - handler: Called on the main actor with the owner and each change.
    /// - Returns: A handle that stops the observer early (cancelled on the main
    ///   actor, it is not called again); releasing it does not.
    @discardableResult
    public final func observeOnMainActor<Owner: AnyObject & Sendable>(
        owner: Owner,
        sendingCurrentState: Bool = false,
        _ handler: @escaping @MainActor @Sendable (Owner, StoreChange<State>) -> Void
    ) -> ObservationHandle {
        observe(owner: owner, through: .mainActor, sendingCurrentState: sendingCurrentState) { owner, change in
            MainActor.assumeIsolated { handler(owner, change) }
        }
    }

    /// Calls `handler` on the main actor with each change of this store until the token is cancelled or released.
    ///
    /// Cancelled on the main actor, the observer is not called again.
    ///
    /// - Returns: A token; keep it as long as you want the changes.
    public final func observeOnMainActor(
        sendingCurrentState: Bool = false,
        _ handler: @escaping @MainActor @Sendable (StoreChange<State>) -> Void
    ) -> ObservationToken {
        observe(through: .mainActor, sendingCurrentState: sendingCurrentState) { change in
            MainActor.assumeIsolated { handler(change) }
        }
    }
}
