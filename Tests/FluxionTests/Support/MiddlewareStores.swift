import Fluxion

// The stores of the `Dispatcher+Middleware…Tests` suites. Names that other test files also
// declare, for other actions, stay `fileprivate`: each file that uses one declares it too.

extension ActionName where Payload == Int {
    fileprivate static var add: Self { "middlewareAdd" }
    static var renamed: Self { "middlewareRenamed" }
    static var trigger: Self { "middlewareTrigger" }
    fileprivate static var follow: Self { "middlewareFollow" }
    static var chain: Self { "middlewareChain" }
    static var both: Self { "middlewareBoth" }
    static var bothFailing: Self { "middlewareBothFailing" }
}

extension ActionName where Payload == String {
    static var text: Self { "middlewareText" }
}

extension ActionName where Payload == Void {
    fileprivate static var fail: Self { "middlewareFail" }
    fileprivate static var ping: Self { "middlewarePing" }
}

/// Writes each action it handles to `log` as `store name(payload)`, and keeps the payloads.
final class MiddlewareLogStore: Store<[Int]>, @unchecked Sendable {  // locked by Store; `log` is immutable
    let log: Recorder<String>

    init(log: Recorder<String>) {
        self.log = log
        super.init(initialState: [])
    }

    override class var handlers: HandlerTable<[Int]> {
        HandlerTable()
            .route(.add, to: MiddlewareLogStore.record)
            .route(.renamed, to: MiddlewareLogStore.record)
            .route(.trigger, to: MiddlewareLogStore.record)
            .route(.follow, to: MiddlewareLogStore.record)
            .route(.both, to: MiddlewareLogStore.record)
            .route(.bothFailing, to: MiddlewareLogStore.record)
            .route(.chain, to: MiddlewareLogStore.chain)
            .route(.text, to: MiddlewareLogStore.text)
            .route(.ping, to: MiddlewareLogStore.ping)
            .route(.fail, to: MiddlewareLogStore.fail)
    }

    func record(_ state: inout [Int], _ action: Action<Int>) throws {
        log.append("store \(action.name)(\(action.payload))")
        state.append(action.payload)
    }

    func chain(_ state: inout [Int], _ action: Action<Int>) throws {
        try record(&state, action)
        try dispatcher?.dispatch(.follow, payload: action.payload + 1)
    }

    func text(_ state: inout [Int], _ action: Action<String>) throws {
        log.append("store \(action.name)(\(action.payload))")
        state.append(action.payload.count)
    }

    func ping(_ state: inout [Int], _ action: Action<Void>) throws {
        log.append("store \(action.name)")
        state.append(0)
    }

    func fail(_ state: inout [Int], _ action: Action<Void>) throws {
        log.append("store \(action.name)")
        state.append(-1)
        throw TestError("middlewareFail")
    }
}

/// Sums the payloads of `.both`; throws on `.bothFailing`.
final class MiddlewareSumStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable()
            .on(.both) { state, action in state += action.payload }
            .on(.bothFailing) { state, _ in
                state = -1
                throw TestError("sum")
            }
    }
}

/// Handles nothing the tests dispatch to the other stores.
final class MiddlewareBystanderStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.add) { state, action in state += action.payload }
    }
}

/// A dispatcher with a ``MiddlewareLogStore`` writing to `log`, created.
func makeLogStore(log: Recorder<String>) throws -> (Dispatcher, MiddlewareLogStore) {
    let dispatcher = Dispatcher()
    try dispatcher.register(MiddlewareLogStore.self) { MiddlewareLogStore(log: log) }
    return (dispatcher, try dispatcher.store(MiddlewareLogStore.self))
}
