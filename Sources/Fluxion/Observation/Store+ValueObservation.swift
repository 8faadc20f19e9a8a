import Dispatch

extension Store {
    /// Calls `handler` when the value at `keyPath` changes, while `owner` is alive.
    ///
    /// The observer compares the value before and after each dispatch that
    /// reaches the store, and stays silent when it is equal, so changes to
    /// other fields do not wake it. Nested paths work; to ignore a field,
    /// observe the fields you need instead of the whole state. The value
    /// before a change is the one the observer read after the change before
    /// it: let the path read the state's own values, not an object the state
    /// refers to, whose changes between dispatches no observer is told of.
    ///
    /// ```swift
    /// store.observe(owner: self, \.user.name) { owner, name in
    ///     owner.showTitle(name.newValue)
    /// }
    /// ```
    ///
    /// Like ``observe(owner:on:sendingCurrentState:_:)``, it stops when the owner
    /// deallocates, and it runs on the dispatching thread unless given a `queue`.
    ///
    /// With `sendingCurrentState`, `handler` is also called once right away
    /// with the current value (then ``ValueChange/oldValue`` equals ``ValueChange/newValue``).
    ///
    /// - Returns: A handle that stops the observer early; releasing it does not.
    @inlinable  // NB: so that each call's `ValueChange` is built where `Value` is known; see `KeyPathValueObserver`
    @discardableResult
    public final func observe<Owner: AnyObject & Sendable, Value: Equatable & Sendable>(
        owner: Owner,
        _ keyPath: KeyPath<State, Value> & Sendable,
        on queue: DispatchQueue? = nil,
        sendingCurrentState: Bool = false,
        _ handler: @escaping @Sendable (Owner, ValueChange<Value>) -> Void
    ) -> ObservationHandle {
        guard queue == nil else {
            return observe(
                owner: owner,
                selecting: { $0[keyPath: keyPath] },
                isEqual: { $0 == $1 },
                on: queue,
                sendingCurrentState: sendingCurrentState,
                onChange: handler
            )
        }
        return observeValue(owner: owner, keyPath, sendingCurrentState: sendingCurrentState) {
            owner, oldValue, newValue, action in
            handler(owner, ValueChange(oldValue: oldValue, newValue: newValue, action: action))
        }
    }

    /// An owner-bound key-path observer called on the dispatching thread; `body` builds each change.
    @usableFromInline
    final func observeValue<Owner: AnyObject & Sendable, Value: Equatable & Sendable>(
        owner: Owner,
        _ keyPath: KeyPath<State, Value>,
        sendingCurrentState: Bool,
        _ body: @escaping @Sendable (Owner, Value, Value, AnyAction) -> Void
    ) -> ObservationHandle {
        let observer = OwnedKeyPathObserver(owner: owner, keyPath: keyPath, body: body)
        add(observer, sendingCurrentState: sendingCurrentState)
        return observer.handle(in: self)
    }

    /// Calls `handler` when the value `select` picks from the state changes, by `isEqual`, while `owner` is alive.
    ///
    /// Use it for values that are not `Equatable`, or to compare less than
    /// everything:
    ///
    /// ```swift
    /// store.observe(
    ///     owner: self,
    ///     selecting: { $0.items },
    ///     isEqual: { $0.map(\.id) == $1.map(\.id) },
    ///     onChange: { owner, items in owner.reload(items.newValue) }
    /// )
    /// ```
    ///
    /// - Returns: A handle that stops the observer early; releasing it does not.
    @discardableResult
    public final func observe<Owner: AnyObject & Sendable, Value: Sendable>(
        owner: Owner,
        selecting select: @escaping @Sendable (State) -> Value,
        isEqual: @escaping @Sendable (Value, Value) -> Bool,
        on queue: DispatchQueue? = nil,
        sendingCurrentState: Bool = false,
        onChange handler: @escaping @Sendable (Owner, ValueChange<Value>) -> Void
    ) -> ObservationHandle {
        observe(
            owner: owner, reading: SelectionReader(select: select, isEqual: isEqual), on: queue,
            sendingCurrentState: sendingCurrentState, handler)
    }

    /// Calls `handler` when the value at `keyPath` changes, until the token is cancelled or released.
    ///
    /// ```swift
    /// let token = store.observe(\.count) { count in print(count.newValue) }
    /// ```
    ///
    /// It compares values as ``observe(owner:_:on:sendingCurrentState:_:)`` does.
    @inlinable  // NB: so that each call's `ValueChange` is built where `Value` is known; see `KeyPathValueObserver`
    public final func observe<Value: Equatable & Sendable>(
        _ keyPath: KeyPath<State, Value> & Sendable,
        on queue: DispatchQueue? = nil,
        sendingCurrentState: Bool = false,
        _ handler: @escaping @Sendable (ValueChange<Value>) -> Void
    ) -> ObservationToken {
        guard queue == nil else {
            return observe(
                selecting: { $0[keyPath: keyPath] },
                isEqual: { $0 == $1 },
                on: queue,
                sendingCurrentState: sendingCurrentState,
                onChange: handler
            )
        }
        return observeGrouped(keyPath, sendingCurrentState: sendingCurrentState) { oldValue, newValue, action in
            handler(ValueChange(oldValue: oldValue, newValue: newValue, action: action))
        }
    }

    /// A key-path token observer that shares one comparison with the others of its key path; `body`
    /// builds each change.
    @usableFromInline
    final func observeGrouped<Value: Equatable & Sendable>(
        _ keyPath: KeyPath<State, Value> & Sendable,
        sendingCurrentState: Bool,
        _ body: @escaping @Sendable (Value, Value, AnyAction) -> Void
    ) -> ObservationToken {
        let observer = KeyPathObserver(store: self, keyPath: keyPath, body: body)
        let join = {
            let released = self.lock.withLock { observer.join() }
            withExtendedLifetime(released) {}  // NB: released outside the lock
            if sendingCurrentState { observer.sendCurrentValue(of: self.committedState) }
        }
        // NB: joining and the first call happen within the dispatch turn, so no change comes in between.
        if sendingCurrentState, let dispatcher { dispatcher.withTurn(join) } else { join() }
        return ObservationToken(observer, lock: lock)
    }

    /// Calls `handler` when the value `select` picks from the state changes, by `isEqual`,
    /// until the token is cancelled or released.
    public final func observe<Value: Sendable>(
        selecting select: @escaping @Sendable (State) -> Value,
        isEqual: @escaping @Sendable (Value, Value) -> Bool,
        on queue: DispatchQueue? = nil,
        sendingCurrentState: Bool = false,
        onChange handler: @escaping @Sendable (ValueChange<Value>) -> Void
    ) -> ObservationToken {
        observe(
            reading: SelectionReader(select: select, isEqual: isEqual), on: queue,
            sendingCurrentState: sendingCurrentState, handler)
    }
}
