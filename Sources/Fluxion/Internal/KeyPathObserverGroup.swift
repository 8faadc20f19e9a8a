/// The token observers of one key path of one store, as one observer in the store's list.
///
/// Each change reads the key path's value once for all members, compares it
/// once, and only when it changed calls the members: a thousand observers of
/// a field a dispatch leaves alone cost one comparison, not a thousand.
final class KeyPathObserverGroup<State: Sendable, Value: Equatable & Sendable>: KeyPathValueObserver<State, Value>,
    @unchecked Sendable
{  // `members` guarded by the store's lock
    /// The `KeyPathObserver<State, Value>`s of the group.
    // NB: `AnyObject`s: an array of a generic class costs this generic code a metadata look-up at each
    // use (about 340 instructions a change).
    // unchecked: +85 instructions a change of the value, checked (callgrind, one `\.count` observer)
    @exclusivity(unchecked) private(set) var members: [AnyObject] = []

    /// Adds a member; call under the store's lock.
    func join(_ member: KeyPathObserver<State, Value>) {
        members.append(member)
    }

    /// Removes a member; call under the store's lock. Returns whether the group is now empty.
    func leave(_ member: KeyPathObserver<State, Value>) -> Bool {
        members.removeAll { $0 === member }
        return members.isEmpty
    }

    /// Calls the members that joined before the change.
    override func tell(
        from oldValue: Value, to newValue: Value, by action: AnyAction, serial: UInt64,
        checking check: CancellationCheck
    ) -> Bool {
        // NB: not `withLock`: in this generic code its closure costs metadata look-ups (about 450 instructions).
        check.lock.lock()
        let members = self.members
        check.lock.unlock()
        for member in members {
            let member = unsafeDowncast(member, to: KeyPathObserver<State, Value>.self)
            if member.joinedAt < serial { member.notify(from: oldValue, to: newValue, by: action, checking: check) }
        }
        return true
    }

    override func isGone(keepingOwnerIn owners: inout [AnyObject]) -> Bool { members.isEmpty }

    override class var traceLabel: String { "observers of a \(typeName(Value.self)) value" }
}

/// One token observer of a key path, a member of its store's group for that key path.
final class KeyPathObserver<State: Sendable, Value: Equatable & Sendable>: Cancellable,
    @unchecked Sendable
{  // `joinedAt`, `group`, `isCancelled` guarded by the store's lock
    // NB: strong references, as for `TokenObserver`: the token cancels at the latest when released.
    private let store: Store<State>
    private let keyPath: KeyPath<State, Value>
    /// Builds each change it is told of: see `Store.observeGrouped(_:sendingCurrentState:_:)`.
    private let body: @Sendable (Value, Value, AnyAction) -> Void
    /// The store's commit count when this observer joined: it hears only later changes.
    private(set) var joinedAt: UInt64 = 0
    private var group: KeyPathObserverGroup<State, Value>?
    private var isCancelled = false

    init(
        store: Store<State>, keyPath: KeyPath<State, Value>, body: @escaping @Sendable (Value, Value, AnyAction) -> Void
    ) {
        self.store = store
        self.keyPath = keyPath
        self.body = body
    }

    /// Joins the store's group for the key path, making it if needed; call under the store's lock.
    ///
    /// - Returns: What registering a new group let go of, for the caller to release after unlocking.
    func join() -> Compaction? {
        joinedAt = store.commitSerial
        if let group = store.keyPathGroups[keyPath] as? KeyPathObserverGroup<State, Value> {
            group.join(self)
            self.group = group
            return nil
        }
        let group = KeyPathObserverGroup<State, Value>(keyPath)
        group.join(self)
        self.group = group
        store.keyPathGroups[keyPath] = group
        return store.append(group)
    }

    /// Calls the observer unless it was cancelled.
    func notify(from oldValue: Value, to newValue: Value, by action: AnyAction, checking check: CancellationCheck) {
        guard check.allowsCall({ isCancelled }) else { return }
        body(oldValue, newValue, action)
    }

    /// Calls the observer with the current value, as its first call.
    func sendCurrentValue(of state: State) {
        let value = state[keyPath: keyPath]
        body(value, value, .currentState)
    }

    func cancel() {
        var released: Any?
        store.lock.lock()
        _ = cancel(holding: store.lock, releasing: &released)
        store.lock.unlock()
        withExtendedLifetime(released) {}  // NB: released outside the lock
    }

    func cancel(holding lock: Lock, releasing released: inout Any?) -> Bool {
        guard lock === store.lock else { return false }
        if let group, group.leave(self) {
            store.keyPathGroups[keyPath] = nil
            if let compaction = store.vacate(group.slot) { released = compaction }
        }
        isCancelled = true
        group = nil
        store.lock.advanceGeneration()
        return true
    }
}
