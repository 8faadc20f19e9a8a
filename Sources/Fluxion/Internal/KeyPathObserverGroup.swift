/// The token observers of one key path of one store, as one observer in the store's list.
///
/// Each change reads the key path's value before and after once, compares it
/// once, and only when it changed calls the members: a thousand observers of
/// a field a dispatch leaves alone cost one comparison, not a thousand.
final class KeyPathObserverGroup<State: Sendable, Value: Equatable & Sendable>: Observer<State>,
    @unchecked Sendable
{  // `members` guarded by the store's lock
    private let keyPath: KeyPath<State, Value>
    // unchecked: +85 instructions a change of the value, checked (callgrind, one `\.count` observer)
    @exclusivity(unchecked) private(set) var members: [KeyPathObserver<State, Value>] = []
    /// The value before an in-place change, from `willChangeInPlace` to the delivery: the dispatch turn holder's.
    // unchecked: W10 +200 instructions/dispatch checked (callgrind)
    @exclusivity(unchecked) private var watched: Value?

    init(_ keyPath: KeyPath<State, Value>) {
        self.keyPath = keyPath
    }

    /// Adds a member; call under the store's lock.
    func join(_ member: KeyPathObserver<State, Value>) {
        members.append(member)
    }

    /// Removes a member; call under the store's lock. Returns whether the group is now empty.
    func leave(_ member: KeyPathObserver<State, Value>) -> Bool {
        members.removeAll { $0 === member }
        return members.isEmpty
    }

    override class var needsOldState: Bool { false }

    override func notify(_ change: StoreChange<State>, checking check: CancellationCheck) -> Bool {
        tell(
            from: change.oldState[keyPath: keyPath], to: change.newState[keyPath: keyPath], by: change.action,
            serial: change.serial, checking: check)
        return true
    }

    override func willChangeInPlace(from old: State, checking check: CancellationCheck) {
        watched = old[keyPath: keyPath]
    }

    override func forgetWatchedState() {
        watched = nil
    }

    override func notifyChangedInPlace(
        to new: State, by action: AnyAction, serial: UInt64, checking check: CancellationCheck
    ) -> Bool {
        guard let oldValue = watched.take() else { return true }
        tell(from: oldValue, to: new[keyPath: keyPath], by: action, serial: serial, checking: check)
        return true
    }

    /// Calls the members that joined before the change, if the value changed.
    private func tell(
        from oldValue: Value, to newValue: Value, by action: AnyAction, serial: UInt64,
        checking check: CancellationCheck
    ) {
        guard oldValue != newValue else { return }
        let members = check.lock.withLock { self.members }
        let valueChange = ValueChange(oldValue: oldValue, newValue: newValue, action: action)
        for member in members where member.joinedAt < serial {
            member.notify(valueChange, checking: check)
        }
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
    private let body: @Sendable (ValueChange<Value>) -> Void
    /// The store's commit count when this observer joined: it hears only later changes.
    private(set) var joinedAt: UInt64 = 0
    private var group: KeyPathObserverGroup<State, Value>?
    private var isCancelled = false

    init(store: Store<State>, keyPath: KeyPath<State, Value>, body: @escaping @Sendable (ValueChange<Value>) -> Void) {
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
    func notify(_ change: ValueChange<Value>, checking check: CancellationCheck) {
        guard check.allowsCall({ isCancelled }) else { return }
        body(change)
    }

    /// Calls the observer with the current value, as its first call.
    func sendCurrentValue(of state: State) {
        let value = state[keyPath: keyPath]
        body(ValueChange(oldValue: value, newValue: value, action: .currentState))
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
