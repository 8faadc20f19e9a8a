/// An action waiting for its turn, with its payload type kept.
struct QueuedAction {
    /// The action with its payload type erased, for hooks.
    let erased: AnyAction
    private let performer: (Dispatcher) throws -> Void

    init<Payload>(action: Action<Payload>, erased: AnyAction?) {
        self.erased = erased ?? AnyAction(action)
        performer = { try $0.performQueued(action, erased: erased) }
    }

    /// Runs the action through `dispatcher`, which must be holding the turn.
    func perform(on dispatcher: Dispatcher) throws {
        try performer(dispatcher)
    }
}

/// A first-in, first-out queue of actions.
struct ActionQueue {
    private var items: [QueuedAction] = []
    private var head = 0

    mutating func append(_ action: QueuedAction) {
        items.append(action)
    }

    mutating func popFirst() -> QueuedAction? {
        guard head < items.count else { return nil }
        defer {
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            }
        }
        return items[head]
    }
}
