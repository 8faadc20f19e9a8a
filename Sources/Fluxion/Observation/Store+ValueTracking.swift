import Observation

// Observation by value: `store.unreadCount` reads one value of the state, and
// Observation tracks that value alone, so a SwiftUI view that shows the
// unread count re-renders when the count changes, not on every change of the
// store.
//
// What a commit runs, and for whom. Observation cannot be asked whether a
// tracker is installed, but it keeps what its trackers read: the key paths
// passed to `ObservationRegistrar.access` go into the access list of the
// `withObservationTracking` under way, and the tracker installed from that
// list keeps them (in the registrar, and in the closure it calls) until it
// fires or is cancelled. Each value read through the store, and the whole
// state, has one key path object, made once and kept by the store alone. So:
//
// - The store holds the only reference to a value's key path exactly when no
//   access list and no installed tracker holds it: when a `withMutation` on it
//   could tell no one. `isTracked` checks that (`isKnownUniquelyReferenced`),
//   and a commit evaluates (runs the key path, compares) and tells only the
//   values whose key path is held; a value is checked again just before it is
//   evaluated, since telling another value may have fired its tracker.
// - A read outside any tracking passes the key path to `access`, which keeps
//   nothing: the read costs nothing afterwards.
// - A tracker that fires is cancelled, and its list released, before the
//   registrar's `withMutation` returns: its values are not evaluated again
//   until read again. (Whoever keeps a fired tracker alive keeps its values
//   held: they are evaluated until it lets go, and told at worst for nothing.)
// - A count may read too high (a release on another thread not seen yet, a
//   reader passing the key path at that moment): a value is then evaluated
//   for nothing. It never reads one while a holder exists: the first hold is
//   taken under the store's lock (below), and every later one is copied from
//   a hold that still exists.
//
// No update is lost. A read calls `access` under the store's lock, before it
// reads the value, in one critical section; a commit decides whom to tell in
// a critical section of its own. Either the commit's comes first, and the
// reader reads the new value; or the read's does, and the commit sees the key
// path held — by the access list until Observation installs the tracker, by
// the tracker after — and tells the registrar if the value changed. A tracker
// that is not installed yet cannot hear that (Observation installs it only
// once the tracked code has returned): that window is Observation's own, the
// same for any `Observable`. What Fluxion keeps is the key path held across
// it, so the change after it is told. A flag set by the read and cleared by
// the first tell (the shortcut in the benchmarks' log, "Observation by value") would be cleared
// by the tell nobody heard, and the next change would never be told.
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
    ///
    /// A chain tracks its first step: `store.items.count` reads `items`
    /// through the store, then counts it, so it is told when `items` changes.
    /// To track the leaf alone, pass the whole path:
    /// `store[dynamicMember: \.items.count]` is told only when the count
    /// changes, and keeps no copy of `items`. To read a big value but track
    /// a smaller one, use ``subscript(_:trackedBy:)``.
    ///
    /// A value is compared at a commit only while a tracker that read it is
    /// installed; a read outside tracking, or by a tracker that has fired
    /// since, runs nothing at later commits.
    public final subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        lock.lock()
        defer { lock.unlock() }
        // NB: under the lock, before the read: see "No update is lost" above.
        registrar.access(self, keyPath: trackedValue(for: keyPath).storeKeyPath)
        return visibleState[keyPath: keyPath]
    }

    /// A value of the state, read so that Observation tracks another, smaller value in its place.
    ///
    /// Tracking a value compares it before and after each change, and so
    /// keeps its old value while the change is made: a big collection tracked
    /// through the store is copied by the next change that lands while a
    /// tracker waits on it. Track something small that changes with it
    /// instead — its count, or a revision the handlers bump:
    ///
    /// ```swift
    /// List(store[\.items, trackedBy: \.items.count]) { item in … }  // told when the count changes
    /// ```
    ///
    /// Code that reads a value this way inside `withObservationTracking` is
    /// told when an action changes `tracked` (compared with `==`), and only
    /// then: a change of `keyPath` that leaves `tracked` equal is not told.
    ///
    /// - Parameters:
    ///   - keyPath: The value to read.
    ///   - tracked: The value that Observation tracks, and compares, in its place.
    public final subscript<Value, Tracked: Equatable>(
        keyPath: KeyPath<State, Value>,
        trackedBy tracked: KeyPath<State, Tracked>
    ) -> Value {
        lock.lock()
        defer { lock.unlock() }
        // NB: under the lock, before the read: see "No update is lost" above.
        registrar.access(self, keyPath: trackedValue(for: tracked).storeKeyPath)
        return visibleState[keyPath: keyPath]
    }

    /// The tracked value of `keyPath`, made on its first read; call under `lock`.
    private func trackedValue<Value>(for keyPath: KeyPath<State, Value>) -> TypedTrackedValue<State, Value> {
        if let known = trackedValues[keyPath] {
            // NB: the values are keyed by their key path into the state, whose type names `Value`.
            return unsafeDowncast(known, to: TypedTrackedValue<State, Value>.self)
        }
        let value = TypedTrackedValue(keyPath)
        trackedValues.add(value, for: keyPath)
        return value
    }

    /// Whether a tracker holds `stateKeyPath`: whether telling the registrar of a change of the
    /// whole state could reach anyone. NB: call under `lock`. A state never read is never tracked,
    /// and a field spares such a store the runtime call (about 30 instructions a dispatch in W12).
    @inlinable
    final var isStateTracked: Bool {
        isStateRead.isSet && !isKnownUniquelyReferenced(&stateKeyPath)
    }
}

/// The values of a store's state read through the store, which Observation may track.
@usableFromInline
struct TrackedValues<State: Sendable> {
    /// By the key path into the state.
    private var byKeyPath: [AnyKeyPath: TrackedValue<State>] = [:]
    /// The same values, in the order they were first read.
    @usableFromInline private(set) var list: ContiguousArray<TrackedValue<State>> = []

    @usableFromInline
    init() {}

    /// Whether no value was ever read through the store.
    @inlinable var isEmpty: Bool { list.isEmpty }

    subscript(keyPath: AnyKeyPath) -> TrackedValue<State>? {
        byKeyPath[keyPath]
    }

    mutating func add(_ value: TrackedValue<State>, for keyPath: AnyKeyPath) {
        byKeyPath[keyPath] = value
        list.append(value)
    }

    /// The values that a tracker holds now, in the order they were first read; empty, and
    /// allocated nowhere, when none is. Call under the store's lock.
    ///
    /// NB: inlinable, as its callers are: unspecialised, it would look up the generic metadata of
    /// its array at every commit (measured: about 500 instructions a dispatch in W1).
    @inlinable
    func tracked() -> ContiguousArray<TrackedValue<State>> {
        var tracked = ContiguousArray<TrackedValue<State>>()
        for value in list where value.isTracked { tracked.append(value) }
        return tracked
    }
}

/// One value of a store's state that Observation may track: whether a tracker holds it, how to tell
/// that it changed, and how to tell the tracker.
///
/// NB: not `Sendable` (key paths are not): it lives in its store, under the store's lock, and in
/// the pending change, which only the dispatch turn's holder touches.
@usableFromInline
class TrackedValue<State: Sendable> {
    /// Whether a tracker that read the value holds its key path; see the top of this file.
    /// NB: call under the store's lock, where readers pass the key path to Observation.
    @usableFromInline var isTracked: Bool { false }

    /// Whether the value differs between two states; runs the key path on both when it is `Equatable`.
    @usableFromInline func hasChanged(from old: State, to new: State) -> Bool { true }

    /// Keeps the value of a state about to change in place; returns whether the changed state differs.
    @usableFromInline func watch(_ old: State) -> (State) -> Bool { { _ in true } }

    /// Tells the store's Observation registrar that the value changed.
    @usableFromInline func tell(_ store: Store<State>) {}
}

/// A tracked value whose type is `Value`.
final class TypedTrackedValue<State: Sendable, Value>: TrackedValue<State> {
    /// The value's key path into the state.
    private let keyPath: KeyPath<State, Value>
    /// `==` when `Value` is `Equatable`: without it, every change of the store is a change of the value.
    private let isEqual: (@Sendable (Value, Value) -> Bool)?
    /// The store's key path to the value, as Observation knows it. NB: the store holds it here
    /// alone; a `var` only so that `isTracked` can check its uniqueness. Never written after `init`.
    // unchecked: W12c +324 instructions/dispatch checked (callgrind)
    @exclusivity(unchecked) private(set) var storeKeyPath: KeyPath<Store<State>, Value>

    init(_ keyPath: KeyPath<State, Value>) {
        self.keyPath = keyPath
        isEqual = equality(of: Value.self)
        storeKeyPath = \Store<State>.[dynamicMember: keyPath]
    }

    override var isTracked: Bool {
        !isKnownUniquelyReferenced(&storeKeyPath)
    }

    override func hasChanged(from old: State, to new: State) -> Bool {
        guard let isEqual else { return true }
        return !isEqual(old[keyPath: keyPath], new[keyPath: keyPath])
    }

    override func watch(_ old: State) -> (State) -> Bool {
        guard let isEqual else { return { _ in true } }  // NB: nothing kept, so nothing is copied
        let value = old[keyPath: keyPath]
        let keyPath = keyPath
        return { new in !isEqual(value, new[keyPath: keyPath]) }
    }

    override func tell(_ store: Store<State>) {
        store.registrar.withMutation(of: store, keyPath: storeKeyPath) {}
    }
}
