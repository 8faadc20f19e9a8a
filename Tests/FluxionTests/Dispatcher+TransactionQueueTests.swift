import Fluxion
import Foundation
import Testing

extension ActionName where Payload == Int {
    fileprivate static var txnQAdd: Self { "txnQAdd" }
}

extension ActionName where Payload == Bool {
    /// The lead calls `batch.dispatch` from its handler; the payload says whether it swallows the error.
    fileprivate static var txnQBatchFromHandler: Self { "txnQBatchFromHandler" }
}

extension ActionName where Payload == Void {
    /// The lead queues `.txnQAdd(100)`, then the trail throws.
    fileprivate static var txnQFailAfterQueueing: Self { "txnQFailAfterQueueing" }
    /// The lead queues `.txnQAdd(200)`.
    fileprivate static var txnQQueueing: Self { "txnQQueueing" }
    /// The lead queues `.txnQFailAfterQueueing`.
    fileprivate static var txnQQueueFailure: Self { "txnQQueueFailure" }
    /// The trail waits at its gate, then throws.
    fileprivate static var txnQHeldFailure: Self { "txnQHeldFailure" }
}

/// Hands the running batch to the handlers that run inside it; only the batch's thread touches it.
private final class BatchSlot: @unchecked Sendable {  // set and read on the batch's thread alone
    var batch: DispatchBatch?
}

/// Where the trail's `.txnQHeldFailure` handler stops: it arrives at `entered`, then waits for `release`.
private struct Hold: Sendable {
    let entered = ArrivalCounter()
    let release = Gate()
}

/// Registered first: queues actions from its handlers.
private final class QueueLeadStore: Store<Tally>, @unchecked Sendable {  // locked by Store; lets are Sendable
    let log: Recorder<String>
    let slot: BatchSlot

    init(log: Recorder<String>, slot: BatchSlot) {
        self.log = log
        self.slot = slot
        super.init(initialState: Tally())
    }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable()
            .on(.txnQAdd) { state, action in state.add(action.payload) }
            .route(.txnQFailAfterQueueing, to: QueueLeadStore.queue(100))
            .route(.txnQQueueing, to: QueueLeadStore.queue(200))
            .route(.txnQQueueFailure, to: QueueLeadStore.queueFailure)
            .on(.txnQHeldFailure) { state, _ in state.add(1) }
            .route(.txnQBatchFromHandler, to: QueueLeadStore.dispatchInBatch)
    }

    static func queue(_ payload: Int) -> @Sendable (QueueLeadStore) -> (inout Tally, Action<Void>) throws -> Void {
        { store in
            { state, _ in
                try store.dispatcher?.dispatch(.txnQAdd, payload: payload)
                state.add(1)
            }
        }
    }

    func queueFailure(_ state: inout Tally, _ action: Action<Void>) throws {
        try dispatcher?.dispatch(.txnQFailAfterQueueing)
        state.add(1)
    }

    func dispatchInBatch(_ state: inout Tally, _ action: Action<Bool>) throws {
        state.add(1)
        do {
            try slot.batch?.dispatch(.txnQAdd, payload: 1_000)
        } catch {
            log.append("\(error)")
            if !action.payload { throw error }
        }
    }
}

/// Registered second: fails `.txnQFailAfterQueueing`, and `.txnQHeldFailure` once its hold is released.
private final class QueueTrailStore: Store<Tally>, @unchecked Sendable {  // locked by Store; `hold` is Sendable
    let hold: Hold

    init(hold: Hold) {
        self.hold = hold
        super.init(initialState: Tally())
    }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable()
            .on(.txnQAdd) { state, action in state.add(action.payload) }
            .on(.txnQFailAfterQueueing) { _, _ in throw TestError("trail") }
            .route(.txnQHeldFailure, to: QueueTrailStore.failWhenReleased)
    }

    func failWhenReleased(_ state: inout Tally, _ action: Action<Void>) throws {
        hold.entered.arrive()
        hold.release.wait()
        throw TestError("held")
    }
}

private struct QueueFixture {
    let dispatcher = Dispatcher()
    let log = Recorder<String>()
    let slot = BatchSlot()
    let hold = Hold()
    /// What ``Dispatcher/onQueuedError`` heard, as `"name: error"`.
    let queuedErrors = Recorder<String>()
    let lead: QueueLeadStore
    let trail: QueueTrailStore

    init(hookingQueuedErrors: Bool = true) throws {
        let (log, slot, hold, queuedErrors) = (log, slot, hold, queuedErrors)
        if hookingQueuedErrors {
            dispatcher.onQueuedError = { action, error in queuedErrors.append("\(action.name): \(error)") }
        }
        try dispatcher.register(QueueLeadStore.self) { QueueLeadStore(log: log, slot: slot) }
        try dispatcher.register(QueueTrailStore.self) { QueueTrailStore(hold: hold) }
        lead = try dispatcher.store(QueueLeadStore.self)
        trail = try dispatcher.store(QueueTrailStore.self)
    }
}

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct TransactionQueueTests {
    @Test func actionsQueuedByAFailedActionsHandlersAreDropped() throws {
        let fixture = try QueueFixture()

        #expect(throws: TestError("trail")) { try fixture.dispatcher.dispatch(.txnQFailAfterQueueing) }
        try fixture.dispatcher.dispatch(.txnQAdd, payload: 1)

        #expect(fixture.lead.state.payloads == [1], "the queued .txnQAdd(100) never runs")
        #expect(fixture.trail.state.payloads == [1])
        #expect(fixture.queuedErrors.values.isEmpty)
    }

    @Test func actionsQueuedByObserversOfAnEarlierActionRunEvenWhenOneOfThemFails() throws {
        let fixture = try QueueFixture()
        let owner = ObserverOwner()
        fixture.lead.observe(owner: owner) { [weak dispatcher = fixture.dispatcher] _, change in
            guard change.action.payload(as: Int.self) == 1 else { return }
            try? dispatcher?.dispatch(.txnQFailAfterQueueing)
            try? dispatcher?.dispatch(.txnQAdd, payload: 10)
        }

        try fixture.dispatcher.dispatch(.txnQAdd, payload: 1)

        #expect(fixture.lead.state.payloads == [1, 10], "the failed one's queued .txnQAdd(100) is dropped")
        #expect(fixture.trail.state.payloads == [1, 10])
        #expect(fixture.queuedErrors.values == ["txnQFailAfterQueueing: TestError(trail)"])
    }

    @Test func anActionFromAnotherThreadWaitsForAFailingActionAndThenRuns() throws {
        let fixture = try QueueFixture()
        let events = Recorder<String>()
        let otherArrived = ArrivalCounter()
        let threads = DispatchGroup()
        threads.runOnNewThread {
            do {
                try fixture.dispatcher.dispatch(.txnQHeldFailure)
                events.append("failing action returned")
            } catch {
                events.append("failing action threw \(error)")
            }
        }
        fixture.hold.entered.wait(for: 1)
        threads.runOnNewThread {
            otherArrived.arrive()
            do {
                try fixture.dispatcher.dispatch(.txnQAdd, payload: 7)
                events.append("other returned")
            } catch {
                events.append("other threw \(error)")
            }
        }
        otherArrived.wait(for: 1)

        #expect(fixture.lead.state == Tally(), "the other action cannot run while the failing one holds the turn")
        events.append("released")
        fixture.hold.release.open()
        threads.wait()

        #expect(events.values.first == "released")
        #expect(Set(events.values.dropFirst()) == ["failing action threw TestError(held)", "other returned"])
        #expect(fixture.lead.state.payloads == [7])
        #expect(fixture.trail.state.payloads == [7])
        #expect(fixture.queuedErrors.values.isEmpty)
    }

    @Test func aBatchThatRollsBackDropsTheActionsItsClosureAndHandlersQueued() throws {
        let fixture = try QueueFixture()

        #expect(throws: TestError("abort")) {
            try fixture.dispatcher.batch { batch in
                try fixture.dispatcher.dispatch(.txnQAdd, payload: 100)
                try batch.dispatch(.txnQQueueing)
                throw TestError("abort")
            }
        }
        try fixture.dispatcher.dispatch(.txnQAdd, payload: 1)

        #expect(fixture.lead.state.payloads == [1])
        #expect(fixture.trail.state.payloads == [1])
        #expect(fixture.queuedErrors.values.isEmpty)
    }

    @Test func aBatchThatCommitsRunsTheActionsItsClosureAndHandlersQueuedAfterIt() throws {
        let fixture = try QueueFixture()
        let heard = Recorder<String>()
        let token = fixture.lead.observe { change in heard.append("\(change.action.name) \(change.newState.payloads)") }
        let seenInside = LockedBox<[Int]>([])

        try fixture.dispatcher.batch { batch in
            try fixture.dispatcher.dispatch(.txnQAdd, payload: 100)
            try batch.dispatch(.txnQQueueing)
            seenInside.value = fixture.lead.state.payloads
        }

        #expect(seenInside.value == [1], "queued actions wait for the batch to end")
        #expect(fixture.lead.state.payloads == [1, 100, 200])
        #expect(heard.values == ["\(AnyAction.batchName) [1]", "txnQAdd [1, 100]", "txnQAdd [1, 100, 200]"])
        token.cancel()
    }

    @Test(arguments: [false, true])
    func batchDispatchFromAHandlerInTheBatchThrowsAndRollsTheBatchBack(handlerSwallowsTheError: Bool) throws {
        let fixture = try QueueFixture()

        // `DispatchBatch.dispatch`: "any error also makes the whole batch roll back, even if you catch it".
        #expect(throws: FluxionError.batchInsideAction) {
            try fixture.dispatcher.batch { batch in
                fixture.slot.batch = batch
                try batch.dispatch(.txnQAdd, payload: 5)
                try batch.dispatch(.txnQBatchFromHandler, payload: handlerSwallowsTheError)
            }
        }
        #expect(fixture.lead.state == Tally())
        #expect(fixture.trail.state == Tally())
        #expect(fixture.log.values == ["\(FluxionError.batchInsideAction)"])
    }

    @Test func aQueuedErrorWithNoHookIsWrittenToStandardError() throws {
        let fixture = try QueueFixture(hookingQueuedErrors: false)

        let text = try captureStandardError { try fixture.dispatcher.dispatch(.txnQQueueFailure) }

        #expect(text.contains("Fluxion: queued action txnQFailAfterQueueing failed: TestError(trail)"))
        #expect(fixture.lead.state.payloads == [1], "the queueing action commits; the queued failure rolls back")
    }
}
