import Fluxion
import Foundation
import Testing

extension ActionName where Payload == Int {
    /// Both stores add the payload; the second waits at its hold first.
    fileprivate static var txnIsoHeld: Self { "txnIsoHeld" }
    /// The first store alone adds the payload.
    fileprivate static var txnIsoOne: Self { "txnIsoOne" }
    /// The second store adds the payload; the first waits for it and adds the second's new total.
    fileprivate static var txnIsoPeek: Self { "txnIsoPeek" }
}

extension ActionName where Payload == Void {
    /// Moves one unit from ``DebitStore`` to ``CreditStore``: their sum stays 0.
    fileprivate static var txnIsoMove: Self { "txnIsoMove" }
    /// ``ReadingStore`` notes what `dispatcher.read` returns inside its handler.
    fileprivate static var txnIsoReadInside: Self { "txnIsoReadInside" }
}

/// Where ``IsoSecondStore``'s `.txnIsoHeld` handler stops: it arrives at `entered`, then waits for `release`.
private struct Hold: Sendable {
    let entered = ArrivalCounter()
    let release = Gate()
}

private final class IsoFirstStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable()
            .on(.txnIsoHeld) { state, action in state.add(action.payload) }
            .on(.txnIsoOne) { state, action in state.add(action.payload) }
            .route(.txnIsoPeek, to: IsoFirstStore.peek)
    }

    func peek(_ state: inout Tally, _ action: Action<Int>) throws {
        state.add(try waitFor(IsoSecondStore.self).state.total)
    }
}

private final class IsoSecondStore: Store<Tally>, @unchecked Sendable {  // locked by Store; `hold` is Sendable
    let hold: Hold

    init(hold: Hold) {
        self.hold = hold
        super.init(initialState: Tally())
    }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable()
            .route(.txnIsoHeld, to: IsoSecondStore.addWhenReleased)
            .on(.txnIsoPeek) { state, action in state.add(action.payload) }
    }

    func addWhenReleased(_ state: inout Tally, _ action: Action<Int>) throws {
        hold.entered.arrive()
        hold.release.wait()
        state.add(action.payload)
    }
}

private final class DebitStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.txnIsoMove) { state, _ in state -= 1 }
    }
}

private final class CreditStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.txnIsoMove) { state, _ in state += 1 }
    }
}

/// Notes the credit `dispatcher.read` returns inside its handler.
private final class ReadingStore: Store<[Int]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: HandlerTable<[Int]> {
        HandlerTable().route(.txnIsoReadInside, to: ReadingStore.readInside)
    }

    func readInside(_ state: inout [Int], _ action: Action<Void>) throws {
        guard let dispatcher else { return }
        let credit = try dispatcher.store(CreditStore.self)
        state.append(dispatcher.read { credit.state })
    }
}

private func makeIsolatedStores() throws -> (Dispatcher, IsoFirstStore, IsoSecondStore, Hold) {
    let hold = Hold()
    let dispatcher = Dispatcher()
    try dispatcher.register(IsoFirstStore.self)
    try dispatcher.register(IsoSecondStore.self) { IsoSecondStore(hold: hold) }
    return (dispatcher, try dispatcher.store(IsoFirstStore.self), try dispatcher.store(IsoSecondStore.self), hold)
}

private func makeLedger() throws -> (Dispatcher, DebitStore, CreditStore) {
    let dispatcher = Dispatcher()
    try dispatcher.register(DebitStore.self)
    try dispatcher.register(CreditStore.self)
    try dispatcher.register(ReadingStore.self)
    return (dispatcher, try dispatcher.store(DebitStore.self), try dispatcher.store(CreditStore.self))
}

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct TransactionIsolationTests {
    @Test func aReaderOnAnotherThreadSeesTheCommittedStatesWhileAnActionRuns() throws {
        let (dispatcher, first, second, hold) = try makeIsolatedStores()
        let failure = LockedBox<String?>(nil)
        let dispatching = DispatchGroup()
        dispatching.runOnNewThread {
            do { try dispatcher.dispatch(.txnIsoHeld, payload: 5) } catch { failure.value = "\(error)" }
        }
        hold.entered.wait(for: 1)

        #expect(first.state == Tally(), "the first store has handled the action, but it is not committed")
        #expect(second.state == Tally())
        hold.release.open()
        dispatching.wait()

        #expect(failure.value == nil)
        #expect(first.state.payloads == [5])
        #expect(second.state.payloads == [5])
    }

    @Test func aReaderOnAnotherThreadSeesNoStateFromTheMiddleOfABatch() throws {
        let (dispatcher, first, _, _) = try makeIsolatedStores()
        let paused = ArrivalCounter()
        let resume = Gate()
        let seenInside = LockedBox<Tally?>(nil)
        let failure = LockedBox<String?>(nil)
        let batching = DispatchGroup()
        batching.runOnNewThread {
            do {
                try dispatcher.batch { batch in
                    try batch.dispatch(.txnIsoOne, payload: 3)
                    seenInside.value = first.state
                    paused.arrive()
                    resume.wait()
                }
            } catch {
                failure.value = "\(error)"
            }
        }
        paused.wait(for: 1)

        #expect(first.state == Tally(), "another thread sees the state from before the batch")
        resume.open()
        batching.wait()

        #expect(failure.value == nil)
        #expect(seenInside.value?.payloads == [3], "the batch's own thread sees its changes so far")
        #expect(first.state.payloads == [3])
    }

    @Test func aHandlerReadsTheNewStateOfTheStoreItWaitedFor() throws {
        let (dispatcher, first, second, _) = try makeIsolatedStores()

        try dispatcher.dispatch(.txnIsoPeek, payload: 4)
        try dispatcher.dispatch(.txnIsoPeek, payload: 6)

        #expect(second.state.payloads == [4, 6])
        #expect(first.state.payloads == [4, 10], "each time, the second store's total after this action")
    }

    @Test func readSeesEveryStoreBetweenActionsWhileOtherThreadsDispatch() throws {
        let (dispatcher, debit, credit) = try makeLedger()
        let perThread = 5_000
        let unbalanced = Recorder<Int>()
        let failures = Recorder<String>()

        runOnThreads(4) { index in
            for _ in 0..<perThread {
                if index < 2 {
                    do { try dispatcher.dispatch(.txnIsoMove) } catch { failures.append("\(error)") }
                } else {
                    let sum = dispatcher.read { debit.state + credit.state }
                    if sum != 0 { unbalanced.append(sum) }
                }
            }
        }

        #expect(unbalanced.values.isEmpty)
        #expect(failures.values.isEmpty)
        #expect(debit.state == -2 * perThread)
        #expect(credit.state == 2 * perThread)
    }

    @Test func readInsideAHandlerRunsAtOnceAndReturnsItsValue() throws {
        let (dispatcher, _, _) = try makeLedger()
        let failure = LockedBox<String?>(nil)

        let finished = finishesInTime {
            do {
                try dispatcher.dispatch(.txnIsoMove)
                try dispatcher.dispatch(.txnIsoMove)
                try dispatcher.dispatch(.txnIsoReadInside)
            } catch {
                failure.value = "\(error)"
            }
        }

        #expect(finished, "read inside a handler must not wait for the turn its own thread holds")
        #expect(failure.value == nil)
        #expect(try dispatcher.store(ReadingStore.self).state == [2])
    }

    @Test func readInsideAnObserverRunsAtOnceAndReturnsItsValue() throws {
        let (dispatcher, debit, credit) = try makeLedger()
        let sums = Recorder<Int>()
        let token = debit.observe { [weak dispatcher] _ in
            if let sum = dispatcher?.read({ debit.state + credit.state }) { sums.append(sum) }
        }

        let finished = finishesInTime { try? dispatcher.dispatch(.txnIsoMove) }

        #expect(finished, "read inside an observer must not wait for the turn its own thread holds")
        #expect(sums.values == [0])
        #expect(debit.state == -1)
        token.cancel()
    }
}
