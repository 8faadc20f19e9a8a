/// A first-in, first-out queue of actions.
struct ActionQueue {
    private var items: [AnyAction] = []
    private var head = 0

    mutating func append(_ action: AnyAction) {
        items.append(action)
    }

    mutating func popFirst() -> AnyAction? {
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
