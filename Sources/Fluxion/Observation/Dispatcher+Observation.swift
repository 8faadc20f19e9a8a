import Dispatch

extension Dispatcher {
    /// Calls `handler` with each change of each of the dispatcher's stores while `owner` is alive.
    ///
    /// Use it for code that watches everything — a logger, a debugging
    /// overlay, an analytics hook:
    ///
    /// ```swift
    /// dispatcher.observe(owner: logger) { logger, change in
    ///     logger.log("\(change.storeType): \(change.action.name)")
    /// }
    /// ```
    ///
    /// Each store's change arrives as an ``AnyStoreChange`` — the store, its
    /// old and new state, the action and the handler's error — after every
    /// store has handled the action, stores in registration order, including
    /// stores created later. Like a store's own observers, it runs on the
    /// dispatching thread unless given a `queue`, and stops when its owner deallocates.
    ///
    /// - Parameters:
    ///   - owner: The object the observer lives as long as.
    ///   - queue: Where to call `handler`; `nil`, the default, calls it on the dispatching thread.
    ///   - sendingCurrentState: Whether to call `handler` right away with the
    ///   current state of each store created so far; `false` by default.
    ///   - handler: Called with the owner and each change.
    /// - Returns: A handle that stops the observer early; releasing it does not.
    @discardableResult
    public func observe<Owner: AnyObject & Sendable>(
        owner: Owner,
        on queue: DispatchQueue? = nil,
        sendingCurrentState: Bool = false,
        _ handler: @escaping @Sendable (Owner, AnyStoreChange) -> Void
    ) -> ObservationHandle {
        observe(owner: owner, through: queue.map(Delivery.init(on:)), sendingCurrentState: sendingCurrentState, handler)
    }

    /// Calls `handler` with each change of each of the dispatcher's stores until the token is cancelled or released.
    ///
    /// ```swift
    /// let token = dispatcher.observe { change in print(change.storeType, change.action.name) }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where to call `handler`; `nil`, the default, calls it on the dispatching thread.
    ///   - sendingCurrentState: Whether to call `handler` right away with the
    ///   current state of each store created so far; `false` by default.
    ///   - handler: Called with each change.
    /// - Returns: A token; keep it as long as you want the changes.
    public func observe(
        on queue: DispatchQueue? = nil,
        sendingCurrentState: Bool = false,
        _ handler: @escaping @Sendable (AnyStoreChange) -> Void
    ) -> ObservationToken {
        guard let queue else {
            let observer = TokenRelayObserver(relay: relay, body: handler)
            add(observer, sendingCurrentState: sendingCurrentState)
            return ObservationToken(observer, lock: relay.lock)
        }
        return observe(through: Delivery(on: queue), sendingCurrentState: sendingCurrentState, handler)
    }

    /// Calls `handler` on the main actor with each change of each store while `owner` is alive.
    ///
    /// Calls are queued on the main queue, in order; a call is skipped if the
    /// owner is gone by then.
    ///
    /// - Returns: A handle that stops the observer early (cancelled on the main
    ///   actor, it is not called again); releasing it does not.
    @discardableResult
    public func observeOnMainActor<Owner: AnyObject & Sendable>(
        owner: Owner,
        sendingCurrentState: Bool = false,
        _ handler: @escaping @MainActor @Sendable (Owner, AnyStoreChange) -> Void
    ) -> ObservationHandle {
        observe(owner: owner, through: .mainActor, sendingCurrentState: sendingCurrentState) { owner, change in
            MainActor.assumeIsolated { handler(owner, change) }
        }
    }

    /// A whole-dispatcher owner-bound observer, called directly or, given a `delivery`, through it.
    private func observe<Owner: AnyObject & Sendable>(
        owner: Owner,
        through delivery: Delivery?,
        sendingCurrentState: Bool,
        _ handler: @escaping @Sendable (Owner, AnyStoreChange) -> Void
    ) -> ObservationHandle {
        var gate: DeliveryGate?
        var body = handler
        if let delivery {
            let queued = DeliveryGate()
            gate = queued
            body = delivery.owned(handler, by: queued)
        }
        let observer = OwnedRelayObserver(owner: owner, lock: relay.lock, body: body)
        add(observer, sendingCurrentState: sendingCurrentState)
        return ObservationHandle(lock: relay.lock) { [weak relay, gate] in
            gate?.cancel()
            relay?.cancel(observer)
        }
    }

    /// Calls `handler` on the main actor with each change of each store until the token is cancelled or released.
    public func observeOnMainActor(
        sendingCurrentState: Bool = false,
        _ handler: @escaping @MainActor @Sendable (AnyStoreChange) -> Void
    ) -> ObservationToken {
        observe(through: .mainActor, sendingCurrentState: sendingCurrentState) { change in
            MainActor.assumeIsolated { handler(change) }
        }
    }

    /// A token observer of every store whose calls go through `delivery`.
    private func observe(
        through delivery: Delivery,
        sendingCurrentState: Bool,
        _ handler: @escaping @Sendable (AnyStoreChange) -> Void
    ) -> ObservationToken {
        let gate = DeliveryGate()
        let observer = TokenRelayObserver(relay: relay, body: delivery.gated(handler, by: gate))
        add(observer, sendingCurrentState: sendingCurrentState)
        return ObservationToken(gate.guarding(observer), lock: relay.lock)
    }

    /// Adds a whole-dispatcher observer; with `sendingCurrentState`, also calls it with each store's state.
    ///
    /// NB: both happen while holding the dispatch turn, so that no change is
    /// delivered in between.
    private func add(_ observer: RelayObserver, sendingCurrentState: Bool) {
        guard sendingCurrentState else {
            relay.add(observer)
            return startRelayingChanges()
        }
        withTurn {
            relay.add(observer)
            startRelayingChanges()
            for store in createdStores() {
                _ = observer.notify(
                    store.currentStateChange(), checking: CancellationCheck(lock: relay.lock, generation: nil))
            }
        }
    }
}
