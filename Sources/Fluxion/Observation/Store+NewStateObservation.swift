import Dispatch

extension Store {
    /// Calls `handler` with the new state after each change of this store, while `owner` is alive.
    ///
    /// For an observer that needs the state after a change, not the one
    /// before it — a view that renders the whole state:
    ///
    /// ```swift
    /// store.observeNewState(owner: self) { owner, state in
    ///     owner.render(state)
    /// }
    /// ```
    ///
    /// Unlike ``observe(owner:on:sendingCurrentState:_:)``, whose
    /// ``StoreChange`` carries the old state too, this observer keeps nothing
    /// from before a change: a handler that cannot throw still changes a big
    /// state in place, and appending one item to an array of a million does
    /// not copy the million (see <doc:ObservingChanges>). Having no old state
    /// to compare with, the observer cannot tell that an action left an
    /// `Equatable` state equal: after a handler that changed the state in
    /// place, it is called even then. To be called only when something
    /// changed, observe a value with a key path instead
    /// (``observe(owner:_:on:sendingCurrentState:_:)``), which compares that
    /// value alone and keeps the in-place change too.
    ///
    /// Otherwise it behaves as the other owner-bound observers: it stops when
    /// the owner deallocates, runs on the dispatching thread unless given a
    /// `queue` (a queued call holds the state until it runs), and, with
    /// `sendingCurrentState`, is also called once right away with the
    /// current state.
    ///
    /// - Parameters:
    ///   - owner: The object the observer lives as long as.
    ///   - queue: Where to call `handler`; `nil`, the default, calls it on the
    ///   dispatching thread. A queued call is skipped if the owner is gone by then.
    ///   - sendingCurrentState: Whether to call `handler` once right away with
    ///   the current state; `false` by default.
    ///   - handler: Called with the owner and each new state.
    /// - Returns: A handle that stops the observer early; releasing it does not.
    @discardableResult
    public final func observeNewState<Owner: AnyObject & Sendable>(
        owner: Owner,
        on queue: DispatchQueue? = nil,
        sendingCurrentState: Bool = false,
        _ handler: @escaping @Sendable (Owner, State) -> Void
    ) -> ObservationHandle {
        observe(owner: owner, reading: NewStateReader(), on: queue, sendingCurrentState: sendingCurrentState, handler)
    }

    /// Calls `handler` with the new state after each change of this store, until the token is cancelled or released.
    ///
    /// ```swift
    /// let token = store.observeNewState { state in print(state.items.count) }
    /// ```
    ///
    /// As ``observeNewState(owner:on:sendingCurrentState:_:)``, it keeps no
    /// state from before a change, so a big state still changes in place; and
    /// as ``observe(on:sendingCurrentState:_:)``, it lives until its token is
    /// cancelled or released.
    ///
    /// - Parameters:
    ///   - queue: Where to call `handler`; `nil`, the default, calls it on the
    ///   dispatching thread.
    ///   - sendingCurrentState: Whether to call `handler` once right away with
    ///   the current state; `false` by default.
    ///   - handler: Called with each new state.
    /// - Returns: A token; keep it as long as you want the changes.
    public final func observeNewState(
        on queue: DispatchQueue? = nil,
        sendingCurrentState: Bool = false,
        _ handler: @escaping @Sendable (State) -> Void
    ) -> ObservationToken {
        observe(reading: NewStateReader(), on: queue, sendingCurrentState: sendingCurrentState, handler)
    }

    /// An owner-bound observer that needs no old state: `reader` picks the argument of each call.
    final func observe<Owner: AnyObject & Sendable, Argument: Sendable>(
        owner: Owner,
        reading reader: ChangeReader<State, Argument>,
        on queue: DispatchQueue?,
        sendingCurrentState: Bool,
        _ handler: @escaping @Sendable (Owner, Argument) -> Void
    ) -> ObservationHandle {
        guard let queue else {
            let observer = OwnedReadingObserver(owner: owner, reader: reader, body: handler)
            add(observer, sendingCurrentState: sendingCurrentState)
            return observer.handle(in: self)
        }
        // NB: the reader runs on the dispatching thread; only the call is queued.
        let gate = DeliveryGate()
        let body = Delivery(on: queue).owned(handler, by: gate)
        let observer = OwnedReadingObserver(owner: owner, reader: reader, body: body)
        add(observer, sendingCurrentState: sendingCurrentState)
        return observer.handle(in: self, closing: gate)
    }

    /// A token observer that needs no old state: `reader` picks the argument of each call.
    final func observe<Argument: Sendable>(
        reading reader: ChangeReader<State, Argument>,
        on queue: DispatchQueue?,
        sendingCurrentState: Bool,
        _ handler: @escaping @Sendable (Argument) -> Void
    ) -> ObservationToken {
        guard let queue else {
            let observer = TokenReadingObserver(store: self, reader: reader, body: handler)
            add(observer, sendingCurrentState: sendingCurrentState)
            return ObservationToken(observer, lock: lock)
        }
        let gate = DeliveryGate()
        let observer = TokenReadingObserver(
            store: self, reader: reader, body: Delivery(on: queue).gated(handler, by: gate))
        add(observer, sendingCurrentState: sendingCurrentState)
        return ObservationToken(gate.guarding(observer), lock: lock)
    }
}
