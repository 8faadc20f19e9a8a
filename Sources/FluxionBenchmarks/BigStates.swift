import Fluxion

extension ActionName where Payload == Int {
    static var appendItem: Self { "appendItem" }
}

extension ActionName where Payload == Void {
    static var removeLastItem: Self { "removeLastItem" }
}

/// W12's store: a big array; one handler appends one item, another removes the last.
final class BigArrayStore: Store<[Int]>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    init() { super.init(initialState: []) }

    override class var handlers: HandlerTable<[Int]> {
        HandlerTable()
            .on(.appendItem) { items, action in items.append(action.payload) }
            .on(.removeLastItem) { items, _ in _ = items.popLast() }
    }
}

/// W12 and B12: the cost of one append to a state that holds `count` items.
enum BigStates {
    /// The sizes W12 measures, with how many appends each run makes.
    static let sizes: [(label: String, count: Int, ops: Int)] = [
        ("1k", 1_000, 100_000), ("100k", 100_000, 2_000), ("1M", 1_000_000, 200),
    ]

    /// W12-SIZE: dispatch to a store whose array holds `count` items, no observers, alternately
    /// `appendItem` and `removeLastItem`, so that it keeps holding `count` items run after run.
    static func dispatching(label: String, count: Int, ops: Int) throws -> Workload {
        let dispatcher = Dispatcher()
        try dispatcher.register(BigArrayStore.self, initialState: Array(0..<count))
        let store = try dispatcher.store(BigArrayStore.self)
        return Workload("W12-\(label)", ops: ops) { ops in
            for op in 0..<ops {
                if op & 1 == 0 {
                    try? dispatcher.dispatch(.appendItem, payload: op)
                } else {
                    try? dispatcher.dispatch(.removeLastItem)
                }
            }
            return withExtendedLifetime(store) { ops }
        }
    }

    /// B12-SIZE: the bare-Swift limit: alternately `append` to and `popLast` from an array of `count` items.
    static func appending(label: String, count: Int, ops: Int) -> Workload {
        var items = Array(0..<count)
        return Workload("B12-\(label)", ops: ops) { ops in
            for op in 0..<ops {
                if op & 1 == 0 { items.append(op) } else { _ = items.popLast() }
            }
            return items.count
        }
    }
}
