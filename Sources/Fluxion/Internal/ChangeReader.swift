/// What an observer that needs no old state reads from a change: the argument of its call, picked
/// from the new state and, when it compares, a value kept from before.
///
/// NB: what a reader keeps between `watch` and the in-place delivery is touched only by the holder
/// of the store's dispatch turn.
class ChangeReader<State: Sendable, Argument: Sendable>: @unchecked Sendable {
    /// The argument of a call for `change`; `nil` when it is no change for this reader.
    func argument(for change: StoreChange<State>) -> Argument? { nil }

    /// Keeps what the reader compares, from a state about to change in place.
    func watch(_ old: State) {}

    /// Drops what ``watch(_:)`` kept.
    func forget() {}

    /// The argument of a call after an in-place change to `new`, against what ``watch(_:)`` kept,
    /// which it drops; `nil` when it is no change for this reader.
    func argument(changedTo new: State, by action: AnyAction) -> Argument? { nil }
}

/// Reads the new state alone: it keeps nothing, and compares nothing.
final class NewStateReader<State: Sendable>: ChangeReader<State, State>, @unchecked Sendable {
    override func argument(for change: StoreChange<State>) -> State? { change.newState }

    override func argument(changedTo new: State, by action: AnyAction) -> State? { new }
}

/// Reads the value `select` picks, and tells it only when it changed by `isEqual`.
final class SelectionReader<State: Sendable, Value: Sendable>: ChangeReader<State, ValueChange<Value>>,
    @unchecked Sendable
{  // `watched`: the dispatch turn holder's
    private let select: @Sendable (State) -> Value
    private let isEqual: @Sendable (Value, Value) -> Bool
    /// The value before an in-place change, from `watch` to the delivery.
    // unchecked: +212 instructions a dispatch with one selection observer, checked (callgrind)
    @exclusivity(unchecked) private var watched: Value?

    init(select: @escaping @Sendable (State) -> Value, isEqual: @escaping @Sendable (Value, Value) -> Bool) {
        self.select = select
        self.isEqual = isEqual
    }

    override func argument(for change: StoreChange<State>) -> ValueChange<Value>? {
        let oldValue = select(change.oldState)
        let newValue = select(change.newState)
        // NB: the current-state call always counts.
        guard change.isCurrentState || !isEqual(oldValue, newValue) else { return nil }
        return ValueChange(oldValue: oldValue, newValue: newValue, action: change.action)
    }

    override func watch(_ old: State) {
        watched = select(old)
    }

    override func forget() {
        watched = nil
    }

    override func argument(changedTo new: State, by action: AnyAction) -> ValueChange<Value>? {
        guard let oldValue = watched.take() else { return nil }
        let newValue = select(new)
        guard !isEqual(oldValue, newValue) else { return nil }
        return ValueChange(oldValue: oldValue, newValue: newValue, action: action)
    }
}
