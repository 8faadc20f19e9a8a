import Fluxion

// The stores of the `Dispatcher+Batch…Tests` suites. `fail` stays `fileprivate`, as other test
// files declare a `fail` of their own: each file that uses it declares it too.

extension ActionName where Payload == Int {
    static var first: Self { "batchFirst" }
    static var shared: Self { "batchShared" }
    static var second: Self { "batchSecond" }
}

extension ActionName where Payload == Void {
    fileprivate static var fail: Self { "batchFail" }
    static var tryBatch: Self { "batchTryBatch" }
}

/// Handles `.first` and `.shared`; `.tryBatch` starts a batch dispatching `.first`, and notes how it went.
final class BatchFirstStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable()
            .on(.first) { state, action in state.add(action.payload) }
            .on(.shared) { state, action in state.add(action.payload) }
            .route(.tryBatch, to: BatchFirstStore.tryBatch)
    }

    func tryBatch(_ state: inout Tally, _ action: Action<Void>) throws {
        do {
            try dispatcher?.batch { batch in try batch.dispatch(.first, payload: 1_000) }
            state.add(1)
        } catch let error as FluxionError where error == .batchInsideAction {
            state.add(-1)
        }
    }
}

/// Handles `.shared` (tenfold), `.second` and `.tryBatch` (adds 7); `.fail` throws after changing the state.
final class BatchSecondStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable()
            .on(.shared) { state, action in state.add(action.payload * 10) }
            .on(.second) { state, action in state.add(action.payload) }
            .on(.tryBatch) { state, _ in state.add(7) }
            .on(.fail) { state, _ in
                state.add(99)
                throw TestError("batchFail")
            }
    }
}

/// A dispatcher with ``BatchFirstStore`` then ``BatchSecondStore``, both created and changed once.
func makeBatchStores() throws -> (Dispatcher, BatchFirstStore, BatchSecondStore) {
    let dispatcher = Dispatcher()
    try dispatcher.register(BatchFirstStore.self)
    try dispatcher.register(BatchSecondStore.self)
    try dispatcher.dispatch(.shared, payload: 1)
    return (dispatcher, try dispatcher.store(BatchFirstStore.self), try dispatcher.store(BatchSecondStore.self))
}
