import Fluxion

/// The states a test expects its stores to have after an action, written as changes of the states before.
///
/// ```swift
/// try test.dispatch(.addTodo, payload: "Buy milk") {
///     $0.modify(TodoStore.self) { $0.items.append(Todo(title: "Buy milk")) }
///     $0.modify(StatsStore.self) { $0.total = 1 }
/// }
/// ```
public struct StateExpectation {
    var states: [ObjectIdentifier: any Sendable]
    /// The store types the expectation modified.
    private(set) var modified: Set<ObjectIdentifier> = []
    /// The names of the store types it named that the test dispatcher does not track.
    private(set) var unknown: [String] = []

    /// Says what the state of a store of this type must become: `change` applied to its state as last asserted.
    ///
    /// ```swift
    /// try test.dispatch(.add, payload: 2) {
    ///     $0.modify(CounterStore.self) { $0.count = 2 }
    ///     $0.modify(LogStore.self) { $0.lines.append("add 2") }
    /// }
    /// ```
    ///
    /// Call it once for each store the action changes; a store the
    /// expectation does not name must keep its state (unless the test
    /// dispatcher's ``TestDispatcher/Exhaustivity`` is ``TestDispatcher/Exhaustivity/off``).
    /// Naming a store type the test dispatcher does not track fails the test.
    ///
    /// - Parameters:
    ///   - type: The store type, as registered.
    ///   - change: Changes the store's state as last asserted into the state it must have now.
    /// - Throws: What `change` throws.
    public mutating func modify<State: Sendable & Equatable, S: Store<State>>(
        _ type: S.Type,
        _ change: (inout State) throws -> Void
    ) rethrows {
        let id = ObjectIdentifier(type)
        guard var state = states[id] as? State else {
            unknown.append("\(type)")
            return
        }
        try change(&state)
        states[id] = state
        modified.insert(id)
    }

    /// Sets the computed store `id` to the state derived from the expected sources, as if the test had.
    mutating func derive(_ id: ObjectIdentifier, as state: any Sendable) {
        states[id] = state
        modified.insert(id)
    }
}
