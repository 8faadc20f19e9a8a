import Fluxion

extension ActionName where Payload == Int {
    static var bumpFirst: Self { "bumpFirst" }
}

/// The first source: it handles `bumpFirst`.
final class FirstSourceStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // Store's lock
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(.bumpFirst) { state, action in state.count &+= action.payload }
    }
}

/// The second source: no W16 action changes it.
final class SecondSourceStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // Store's lock
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(.increment) { state, action in state.count &+= action.payload }
    }
}

/// The sum of the two sources, computed (W16).
final class SumStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // Store's lock
    init() { super.init(initialState: 0) }
}

/// The sum of the two sources, following them with `waitFor` (W16w): the store W16's replaces.
final class WaitingSumStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // Store's lock
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable()
            .route(.bumpFirst, to: WaitingSumStore.follow)
            .route(.increment, to: WaitingSumStore.follow)
    }

    func follow(_ sum: inout Int, _ action: Action<Int>) throws {
        sum = try waitFor(FirstSourceStore.self).state.count &+ waitFor(SecondSourceStore.self).state.count
    }
}

/// What a computed store costs: W16, beside the `waitFor` store it replaces (W16w).
enum ComputedStores {
    /// W16: an action one of two sources handles; a store computed from both follows it.
    static func w16() throws -> Workload {
        let dispatcher = try sources()
        try dispatcher.register(SumStore.self, computedFrom: FirstSourceStore.self, SecondSourceStore.self) {
            $0.count &+ $1.count
        }
        let sum = try dispatcher.store(SumStore.self)
        return Workload("W16", ops: 1_000_000) { ops in
            for _ in 0..<ops { try? dispatcher.dispatch(.bumpFirst, payload: 1) }
            return sum.state
        }
    }

    /// W16w: the same, the sum following the sources with `waitFor` in handlers of its own.
    static func w16w() throws -> Workload {
        let dispatcher = try sources()
        try dispatcher.register(WaitingSumStore.self)
        let sum = try dispatcher.store(WaitingSumStore.self)
        return Workload("W16w", ops: 1_000_000) { ops in
            for _ in 0..<ops { try? dispatcher.dispatch(.bumpFirst, payload: 1) }
            return sum.state
        }
    }

    private static func sources() throws -> Dispatcher {
        let dispatcher = Dispatcher()
        try dispatcher.register(FirstSourceStore.self)
        try dispatcher.register(SecondSourceStore.self)
        return dispatcher
    }
}
