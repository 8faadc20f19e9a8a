import Fluxion
import Foundation
import Testing

/// The dispatcher the handler table below asks a question while it is read.
private let tableProbeDispatcher = Dispatcher()

extension ActionName where Payload == Int {
    fileprivate static var fixAdd: Self { "fixAdd" }
    fileprivate static var fixTableProbe: Self { "fixTableProbe" }
}

/// A store whose handler table, user code, calls the dispatcher registering it.
private final class TableProbeStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        _ = tableProbeDispatcher.isDispatching
        return HandlerTable().on(.fixTableProbe) { state, action in state.add(action.payload) }
    }
}

private final class FixFirstStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(.fixAdd) { state, action in state.add(action.payload) }
    }
}

/// Waits for ``FixFirstStore``, adds an observer of it that asks for the current state, then throws.
private final class FixObservingStore: Store<Tally>, @unchecked Sendable {  // locked by Store; `heard` is a Recorder
    let heard: Recorder<Int>

    init(heard: Recorder<Int>) {
        self.heard = heard
        super.init(initialState: Tally())
    }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().route(.fixAdd, to: FixObservingStore.observeThenFail)
    }

    func observeThenFail(_ state: inout Tally, _ action: Action<Int>) throws {
        let first = try waitFor(FixFirstStore.self)
        first.observe(owner: heard, sendingCurrentState: true) { heard, change in heard.append(change.newState.total) }
        throw TestError("observing store")
    }
}

/// Hands the running batch to its middleware; set and read on the batch's thread alone.
private final class RunningBatch: @unchecked Sendable {  // touched only on the batch's thread
    var batch: DispatchBatch?
}

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct DispatcherReentrancyTests {
    @Test func registerReadsTheHandlerTableOutsideTheDispatcherLock() throws {
        let finished = finishesInTime { try? tableProbeDispatcher.register(TableProbeStore.self) }

        try #require(finished, "the handler table's getter ran under the dispatcher's lock")
        #expect(tableProbeDispatcher.isRegistered(TableProbeStore.self))
    }

    @Test func actionsDispatchedInsideReadWaitForASuspension() throws {
        let (dispatcher, store) = try makeCounterStore()

        try dispatcher.withSuspension {
            try dispatcher.dispatch(.counterAdd, payload: 1)
            try dispatcher.read { try dispatcher.dispatch(.counterAdd, payload: 10) }
            #expect(store.state.total == 0, "both wait for the suspension to end")
        }

        #expect(store.state.payloads == [1, 10], "in the order they were dispatched")
    }

    @Test func aBatchStartedByAMiddlewareInsideABatchIsRefusedAndFailsTheBatch() throws {
        let (dispatcher, store) = try makeCounterStore()
        let outcomes = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                if action.payload(as: Int.self) == 1 {
                    do {
                        try next.dispatcher.batch { try $0.dispatch(.counterAdd, payload: 100) }
                        outcomes.append("folded")
                    } catch {
                        outcomes.append("\(error)")
                    }
                }
                return try next(action)
            })

        try dispatcher.dispatch(.counterAdd, payload: 1)
        try dispatcher.batch { batch in try batch.dispatch(.counterAdd, payload: 1) }

        #expect(outcomes.values == Array(repeating: "\(FluxionError.batchInsideAction)", count: 2))
        #expect(store.state.payloads == [1, 1])
    }

    @Test func aBatchDispatchFromAMiddlewareOfTheBatchsActionFailsTheBatch() throws {
        let (dispatcher, store) = try makeCounterStore()
        let slot = RunningBatch()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                if action.payload(as: Int.self) == 1, let batch = slot.batch {
                    try? batch.dispatch(.counterAdd, payload: 100)  // refused; caught, yet the batch fails
                }
                return try next(action)
            })

        #expect(throws: FluxionError.batchInsideAction) {
            try dispatcher.batch { batch in
                slot.batch = batch
                try batch.dispatch(.counterAdd, payload: 1)
            }
        }
        #expect(store.state == Tally())
    }

    @Test func anObserverAddedInAHandlerHearsTheCommittedStateNotAStagedOne() throws {
        let dispatcher = Dispatcher()
        let heard = Recorder<Int>()
        try dispatcher.register(FixFirstStore.self)
        try dispatcher.register(FixObservingStore.self) { FixObservingStore(heard: heard) }

        #expect(throws: TestError("observing store")) { try dispatcher.dispatch(.fixAdd, payload: 5) }

        #expect(try dispatcher.store(FixFirstStore.self).state.total == 0)
        #expect(heard.values == [0], "the first call carries the committed state, not the rolled-back 5")
    }
}
