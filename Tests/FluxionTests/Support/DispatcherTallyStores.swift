import Fluxion

// The stores that tally `.add`, shared by `DispatcherTests` and `DispatcherRegistrationTests`.
// `add` stays `fileprivate`, as other test files declare an `add` of their own: each file that
// uses it declares it too.

extension ActionName where Payload == Int {
    fileprivate static var add: Self { "dispatcherAdd" }
}

/// Adds the payload; `log` hears "first:<payload>".
final class DispatcherFirstStore: Store<Tally>, @unchecked Sendable {  // locked by Store
    let log: Recorder<String>

    init(log: Recorder<String>) {
        self.log = log
        super.init(initialState: Tally())
    }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().route(.add, to: DispatcherFirstStore.add)
    }

    func add(_ state: inout Tally, _ action: Action<Int>) throws {
        log.append("first:\(action.payload)")
        state.add(action.payload)
    }
}

/// Adds the payload; `log` hears "second:<payload>".
final class DispatcherSecondStore: Store<Tally>, @unchecked Sendable {  // locked by Store
    let log: Recorder<String>

    init(log: Recorder<String>) {
        self.log = log
        super.init(initialState: Tally())
    }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().route(.add, to: DispatcherSecondStore.add)
    }

    func add(_ state: inout Tally, _ action: Action<Int>) throws {
        log.append("second:\(action.payload)")
        state.add(action.payload)
    }
}

/// Adds the payload; `log` hears "third:<payload>".
final class DispatcherThirdStore: Store<Tally>, @unchecked Sendable {  // locked by Store
    let log: Recorder<String>

    init(log: Recorder<String>) {
        self.log = log
        super.init(initialState: Tally())
    }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().route(.add, to: DispatcherThirdStore.add)
    }

    func add(_ state: inout Tally, _ action: Action<Int>) throws {
        log.append("third:\(action.payload)")
        state.add(action.payload)
    }
}

/// Adds the payload, but throws after mutating when it is negative.
final class DispatcherFragileStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(.add) { state, action in
            state.add(action.payload)
            if action.payload < 0 { throw TestError("negative") }
        }
    }
}

/// Adds every payload, negative ones included.
final class DispatcherSturdyStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(.add) { state, action in state.add(action.payload) }
    }
}
