import Fluxion
import Observation

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

/// W12t's and W12c's state: a big list that a view shows, and the number of its changes.
///
/// NB: with a state laid out as W12's, the optimiser merges these stores' handler code with
/// W12's, and W12 then pays a thunk per handler call (about 30 instructions a dispatch).
struct BigList: Sendable, Equatable {
    var items: [Int]
    var revision = 0
}

/// W12t's and W12c's store: one handler appends one item, another removes the last.
final class BigListStore: Store<BigList>, @unchecked Sendable {  // state guarded by Store's lock
    init() { super.init(initialState: BigList(items: [])) }

    override class var handlers: HandlerTable<BigList> {
        HandlerTable()
            .on(.appendItem) { list, action in
                list.items.append(action.payload)
                list.revision += 1
            }
            .on(.removeLastItem) { list, _ in
                _ = list.items.popLast()
                list.revision += 1
            }
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

    /// W12n-SIZE (`wholeChange` false) and W12o-SIZE (true): W12's dispatches while one token observer
    /// counts the items after each change. W12n's observer takes the new state alone
    /// (`observeNewState`), so the append stays in place; W12o's takes the whole change
    /// (`observe`, old state and new), so each change keeps the old items, and copies them.
    static func observing(_ size: (label: String, count: Int, ops: Int), wholeChange: Bool) throws -> Workload {
        let dispatcher = Dispatcher()
        try dispatcher.register(BigArrayStore.self, initialState: Array(0..<size.count))
        let store = try dispatcher.store(BigArrayStore.self)
        let token =
            wholeChange
            ? store.observe { change in sink &+= change.newState.count }
            : store.observeNewState { items in sink &+= items.count }
        return Workload("W12\(wholeChange ? "o" : "n")-\(size.label)", ops: size.ops) { ops in
            for op in 0..<ops {
                if op & 1 == 0 {
                    try? dispatcher.dispatch(.appendItem, payload: op)
                } else {
                    try? dispatcher.dispatch(.removeLastItem)
                }
            }
            return withExtendedLifetime((store, token)) { ops }
        }
    }

    /// W12k-SIZE (`owned` false) and W12kw-SIZE (true): W12n's dispatches while one key-path observer
    /// (`\.count`: the form a view that shows one field uses) adds the new count after each change,
    /// which changes it. W12k's is a token observer, as W12n's; W12kw's is bound to a weak owner.
    static func observingKeyPath(_ size: (label: String, count: Int, ops: Int), owned: Bool) throws -> Workload {
        let dispatcher = Dispatcher()
        try dispatcher.register(BigArrayStore.self, initialState: Array(0..<size.count))
        let store = try dispatcher.store(BigArrayStore.self)
        let owner = Owner()
        let handle: AnyObject =
            owned
            ? store.observe(owner: owner, \.count) { _, change in sink &+= change.newValue }
            : store.observe(\.count) { change in sink &+= change.newValue }
        return Workload("W12k\(owned ? "w" : "")-\(size.label)", ops: size.ops) { ops in
            for op in 0..<ops {
                if op & 1 == 0 {
                    try? dispatcher.dispatch(.appendItem, payload: op)
                } else {
                    try? dispatcher.dispatch(.removeLastItem)
                }
            }
            return withExtendedLifetime((store, handle, owner)) { ops }
        }
    }

    /// W12t-SIZE (`byCount` false) and W12c-SIZE (true): W12's dispatches while a view shows the
    /// items, and reads them again after each change, as a SwiftUI view that renders after every
    /// change. W12t's view reads `store.items`, which Observation tracks by comparing the items:
    /// each change keeps the old items, and so copies them. W12c's reads
    /// `store[\.items, trackedBy: \.items.count]`, which compares the count alone.
    static func tracking(_ size: (label: String, count: Int, ops: Int), byCount: Bool) throws -> Workload {
        let dispatcher = Dispatcher()
        try dispatcher.register(BigListStore.self, initialState: BigList(items: Array(0..<size.count))) {
            BigListStore()
        }
        let store = try dispatcher.store(BigListStore.self)
        let render = {
            withObservationTracking {
                byCount ? store[\.items, trackedBy: \.items.count].count : store.items.count
            } onChange: {
            }
        }
        return Workload("W12\(byCount ? "c" : "t")-\(size.label)", ops: size.ops) { ops in
            var shown = 0
            for op in 0..<ops {
                shown &+= render()
                if op & 1 == 0 {
                    try? dispatcher.dispatch(.appendItem, payload: op)
                } else {
                    try? dispatcher.dispatch(.removeLastItem)
                }
            }
            return shown
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
