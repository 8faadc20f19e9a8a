/// An action waiting for its turn, with its payload type kept.
struct QueuedAction {
    /// The action with its payload type erased, for hooks.
    let action: AnyAction
    private let runner: (Dispatcher) throws -> Void

    /// A typed action.
    init<Payload: Sendable>(name: String, payload: Payload, error: (any Error)?) {
        action = AnyAction(name: name, payload: payload, error: error)
        runner = { dispatcher in
            try dispatcher.runAction(name) {
                AnyAction(name: name, payload: payload, error: error)
            } handlers: { list in
                try dispatcher.runHandlers(name, payload: payload, error: error, through: list)
            }
        }
    }

    /// An untyped action.
    init(_ action: AnyAction) {
        self.action = action
        runner = { dispatcher in
            try dispatcher.runAction(action.name) {
                action
            } handlers: { list in
                try dispatcher.runHandlers(action, through: list)
            }
        }
    }

    /// Runs the action through `dispatcher`, which must be holding the turn.
    func run(on dispatcher: Dispatcher) throws {
        try runner(dispatcher)
    }
}

/// A first-in, first-out queue of actions.
///
/// Popping takes the action out of its slot, so the queue never holds on to
/// an action it handed out: releasing an action may run user code (a payload's
/// `deinit`), which must happen where its taker releases it, outside any lock.
struct ActionQueue {
    private var items: [QueuedAction?] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }

    mutating func append(_ action: QueuedAction) {
        items.append(action)
    }

    mutating func popFirst() -> QueuedAction? {
        guard head < items.count else { return nil }
        let first = items[head].take()
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)  // NB: only empty slots are left
            head = 0
        }
        return first
    }
}
