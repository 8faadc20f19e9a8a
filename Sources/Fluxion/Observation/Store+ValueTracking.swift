import Observation

// Observation by value: `store.unreadCount` reads one value of the state, and
// Observation tracks that value alone, so a SwiftUI view that shows the
// unread count re-renders when the count changes, not on every change of the
// store.
extension Store {
    /// A value of the state, read so that Observation tracks this value alone.
    ///
    /// ```swift
    /// Text("\(inbox.unreadCount)")  // `inbox.state.unreadCount`, tracked by itself
    /// ```
    ///
    /// Code that reads a value this way inside `withObservationTracking` (a
    /// SwiftUI view's `body`) is told when an action changes that value —
    /// compared with `==` when it is `Equatable`, otherwise whenever the store
    /// changes — and not when the action changes only other values. It sees
    /// what ``state`` shows: never a value in the middle of an action on
    /// another thread. Read ``state`` to track the whole state, as before.
    public final subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        registrar.access(self, keyPath: trackedKeyPath(for: keyPath))
        return lock.withLock { visibleState[keyPath: keyPath] }
    }

    /// The store's key path to the value at `keyPath`, as Observation knows it; made once per value.
    private func trackedKeyPath<Value>(for keyPath: KeyPath<State, Value>) -> KeyPath<Store<State>, Value> {
        if let known = lock.withLock({ trackedValues.keyPath(for: keyPath) }) as? KeyPath<Store<State>, Value> {
            return known
        }
        let storeKeyPath: KeyPath<Store<State>, Value> = \Store<State>.[dynamicMember: keyPath]
        let isEqual = equality(of: Value.self)
        let value = TrackedValue<State>(
            keyPath: storeKeyPath,
            hasChanged: { old, new in isEqual.map { !$0(old[keyPath: keyPath], new[keyPath: keyPath]) } ?? true },
            watch: { old in
                let value = old[keyPath: keyPath]
                return { new in isEqual.map { !$0(value, new[keyPath: keyPath]) } ?? true }
            },
            tell: { store in store.registrar.withMutation(of: store, keyPath: storeKeyPath) {} })
        lock.withLock { trackedValues.add(value, for: keyPath) }
        return storeKeyPath
    }
}

/// The values of a store's state read through the store, which Observation may track.
@usableFromInline
struct TrackedValues<State: Sendable> {
    /// By the key path into the state.
    private var byKeyPath: [AnyKeyPath: TrackedValue<State>] = [:]
    /// The same values, in a list a commit takes without copying.
    @usableFromInline private(set) var list: ContiguousArray<TrackedValue<State>> = []

    @usableFromInline
    init() {}

    func keyPath(for keyPath: AnyKeyPath) -> AnyKeyPath? {
        byKeyPath[keyPath]?.keyPath
    }

    mutating func add(_ value: TrackedValue<State>, for keyPath: AnyKeyPath) {
        guard byKeyPath[keyPath] == nil else { return }  // NB: another thread added it meanwhile
        byKeyPath[keyPath] = value
        list.append(value)
    }
}

/// One value of a store's state that Observation may track: how to tell that it changed, and whom.
///
/// NB: not `Sendable` (key paths are not): it lives in its store, under the store's lock, and in
/// the pending change, which only the dispatch turn's holder touches.
@usableFromInline
struct TrackedValue<State: Sendable> {
    /// The store's key path to the value, as Observation tracks it.
    let keyPath: AnyKeyPath
    /// Whether the value differs between two states.
    @usableFromInline let hasChanged: (State, State) -> Bool
    /// Keeps the value of a state about to change in place, to tell whether the changed state differs.
    @usableFromInline let watch: (State) -> (State) -> Bool
    /// Tells the store's Observation registrar that the value changed.
    @usableFromInline let tell: (Store<State>) -> Void
}
