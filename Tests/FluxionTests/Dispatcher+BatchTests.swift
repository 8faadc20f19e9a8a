import Fluxion
import Foundation
import Observation
import Testing

extension ActionName where Payload == Int {
    fileprivate static var first: Self { "batchFirst" }
    fileprivate static var shared: Self { "batchShared" }
    fileprivate static var second: Self { "batchSecond" }
}

extension ActionName where Payload == Void {
    fileprivate static var fail: Self { "batchFail" }
    fileprivate static var tryBatch: Self { "batchTryBatch" }
}

/// Handles `.first` and `.shared`; `.tryBatch` starts a batch dispatching `.first`, and notes how it went.
final class BatchFirstStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable()
            .on(.first) { state, action in state.add(action.payload) }
            .on(.shared) { state, action in state.add(action.payload) }
            .on(.tryBatch, BatchFirstStore.tryBatch)
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
private func makeBatchStores() throws -> (Dispatcher, BatchFirstStore, BatchSecondStore) {
    let dispatcher = Dispatcher()
    try dispatcher.register(BatchFirstStore.self)
    try dispatcher.register(BatchSecondStore.self)
    try dispatcher.dispatch(.shared, payload: 1)
    return (dispatcher, try dispatcher.store(BatchFirstStore.self), try dispatcher.store(BatchSecondStore.self))
}

/// How tests write a change: `name old→new`, with the total of each tally.
private func describe(_ change: StoreChange<Tally>) -> String {
    "\(change.action.name) \(change.oldState.total)→\(change.newState.total)"
}

/// The names and payloads of a batch action's actions.
private func batchedActions(of action: AnyAction) -> [String] {
    (action.payload(as: [AnyAction].self) ?? []).map { "\($0.name)(\($0.payload))" }
}

@Suite struct DispatcherBatchTests {
    @Test func eachStoresObserversHearOneChangeFromBeforeTheBatchToAfterIt() throws {
        let (dispatcher, first, second) = try makeBatchStores()
        let firstChanges = Recorder<StoreChange<Tally>>()
        let secondChanges = Recorder<StoreChange<Tally>>()
        let firstToken = first.observe { firstChanges.append($0) }
        let secondToken = second.observe { secondChanges.append($0) }
        let before = (first.state, second.state)

        try dispatcher.batch { batch in
            try batch.dispatch(.first, payload: 2)
            try batch.dispatch(.shared, payload: 3)
            try batch.dispatch(.second, payload: 4)
        }

        #expect(firstChanges.count == 1)
        #expect(secondChanges.count == 1)
        let firstChange = try #require(firstChanges.values.first)
        let secondChange = try #require(secondChanges.values.first)
        #expect(firstChange.oldState == before.0)
        #expect(firstChange.newState == Tally(total: 6, calls: 3, payloads: [1, 2, 3]))
        #expect(firstChange.newState == first.state)
        #expect(secondChange.oldState == before.1)
        #expect(secondChange.newState == Tally(total: 44, calls: 3, payloads: [10, 30, 4]))
        #expect(secondChange.newState == second.state)
        for change in [firstChange, secondChange] {
            #expect(change.action.name == AnyAction.batchName)
            #expect(batchedActions(of: change.action) == ["batchFirst(2)", "batchShared(3)", "batchSecond(4)"])
        }
        firstToken.cancel()
        secondToken.cancel()
    }

    @Test(arguments: [false, true])
    func aFailingActionRollsEveryStoreBackAndTellsNoObserver(closureCatchesTheError: Bool) throws {
        let (dispatcher, first, second) = try makeBatchStores()
        let observed = LockedBox(0)
        let tokens = [
            first.observe { _ in observed.withValue { $0 += 1 } },
            second.observe { _ in observed.withValue { $0 += 1 } },
        ]
        let before = (first.state, second.state)

        #expect(throws: TestError("batchFail")) {
            try dispatcher.batch { batch in
                try batch.dispatch(.first, payload: 2)
                try batch.dispatch(.second, payload: 4)
                if closureCatchesTheError {
                    try? batch.dispatch(.fail)
                } else {
                    try batch.dispatch(.fail)
                }
            }
        }

        #expect(first.state == before.0)
        #expect(second.state == before.1)
        #expect(observed.value == 0)
        #expect(!dispatcher.isDispatching)
        for token in tokens { token.cancel() }
    }

    @Test func anErrorThrownByTheClosureRollsBackAndIsThrown() throws {
        let (dispatcher, first, second) = try makeBatchStores()
        let observed = LockedBox(0)
        let token = first.observe { _ in observed.withValue { $0 += 1 } }
        let before = (first.state, second.state)

        #expect(throws: TestError("abort")) {
            try dispatcher.batch { batch in
                try batch.dispatch(.shared, payload: 2)
                #expect(first.state.total == 3, "readers may see the state between the batch's actions")
                throw TestError("abort")
            }
        }

        #expect(first.state == before.0)
        #expect(second.state == before.1)
        #expect(observed.value == 0)
        token.cancel()
    }

    @Test func aNestedBatchFoldsIntoTheOuterOne() throws {
        let (dispatcher, first, _) = try makeBatchStores()
        let changes = Recorder<StoreChange<Tally>>()
        let token = first.observe { changes.append($0) }

        try dispatcher.batch { outer in
            try outer.dispatch(.first, payload: 2)
            try dispatcher.batch { inner in
                try inner.dispatch(.first, payload: 3)
            }
            try outer.dispatch(.first, payload: 4)
        }

        #expect(changes.values.map(describe) == ["Fluxion.batch 1→10"])
        #expect(
            changes.values.map { batchedActions(of: $0.action) } == [
                ["batchFirst(2)", "batchFirst(3)", "batchFirst(4)"]
            ])
        token.cancel()
    }

    @Test func aFailingNestedBatchFailsTheOuterOne() throws {
        let (dispatcher, first, second) = try makeBatchStores()
        let observed = LockedBox(0)
        let token = first.observe { _ in observed.withValue { $0 += 1 } }
        let before = (first.state, second.state)

        #expect(throws: TestError("batchFail")) {
            try dispatcher.batch { outer in
                try outer.dispatch(.first, payload: 2)
                try? dispatcher.batch { inner in
                    try inner.dispatch(.second, payload: 3)
                    try inner.dispatch(.fail)
                }
                try outer.dispatch(.first, payload: 4)
            }
        }
        #expect(throws: TestError("inner abort")) {
            try dispatcher.batch { outer in
                try outer.dispatch(.first, payload: 2)
                try? dispatcher.batch { _ in throw TestError("inner abort") }
            }
        }

        #expect(first.state == before.0)
        #expect(second.state == before.1)
        #expect(observed.value == 0)
        token.cancel()
    }

    @Test func batchReturnsTheClosuresValue() throws {
        let (dispatcher, first, _) = try makeBatchStores()

        let value = try dispatcher.batch { batch -> String in
            try batch.dispatch(.first, payload: 2)
            return "total \(first.state.total)"
        }

        #expect(value == "total 3")
    }

    @Test func aBatchStartedFromAHandlerThrowsBatchInsideAction() throws {
        let (dispatcher, first, second) = try makeBatchStores()

        try dispatcher.dispatch(.tryBatch)

        #expect(first.state.payloads == [1, -1], "the handler caught batchInsideAction; its batch did not run")
        #expect(second.state.payloads == [10, 7])
    }

    @Test func aBatchStartedFromAHandlerInsideABatchThrowsBatchInsideAction() throws {
        let (dispatcher, first, second) = try makeBatchStores()

        try dispatcher.batch { batch in try batch.dispatch(.tryBatch) }

        #expect(first.state.payloads == [1, -1], "the handler caught batchInsideAction; its batch did not run")
        #expect(second.state.payloads == [10, 7])
    }

    @Test func aBatchStartedFromAnObserverThrowsBatchInsideAction() throws {
        let (dispatcher, first, _) = try makeBatchStores()
        let outcomes = Recorder<String>()
        let token = first.observe { _ in
            do {
                try dispatcher.batch { batch in try batch.dispatch(.second, payload: 1) }
                outcomes.append("ran")
            } catch {
                outcomes.append("\(error)")
            }
        }

        try dispatcher.dispatch(.first, payload: 1)
        try dispatcher.batch { batch in try batch.dispatch(.first, payload: 1) }

        #expect(outcomes.values == Array(repeating: FluxionError.batchInsideAction.description, count: 2))
        #expect(try dispatcher.store(BatchSecondStore.self).state.total == 10)
        token.cancel()
    }

    @Test func aDispatchBatchUsedAfterItsBatchThrowsBatchEnded() throws {
        let (dispatcher, first, _) = try makeBatchStores()
        var escaped: DispatchBatch?
        try dispatcher.batch { escaped = $0 }
        let batch = try #require(escaped)

        #expect(throws: FluxionError.batchEnded("batchFirst")) { try batch.dispatch(.first, payload: 1) }
        #expect(throws: FluxionError.batchEnded("batchFail")) { try batch.dispatch(.fail) }
        #expect(throws: FluxionError.batchEnded("batchShared")) {
            try batch.dispatch(AnyAction(name: "batchShared", payload: 1))
        }
        #expect(first.state.total == 1)
    }

    @Test func aDispatchBatchUsedFromAnotherThreadThrowsBatchEnded() throws {
        let (dispatcher, first, _) = try makeBatchStores()
        let outcome = LockedBox<String?>(nil)

        try dispatcher.batch { batch in
            let shared = UncheckedBox(batch)
            let done = Gate()
            Thread {
                do {
                    try shared.value.dispatch(.first, payload: 5)
                    outcome.value = "ran"
                } catch {
                    outcome.value = "\(error)"
                }
                done.open()
            }.start()
            done.wait()
            try batch.dispatch(.first, payload: 2)
        }

        #expect(outcome.value == FluxionError.batchEnded("batchFirst").description)
        #expect(first.state.payloads == [1, 2])
    }

    @Test func aPlainDispatchInsideTheBatchRunsAfterIt() throws {
        let (dispatcher, first, _) = try makeBatchStores()
        let changes = Recorder<String>()
        let token = first.observe { changes.append(describe($0)) }
        let totalAfterPlainDispatch = LockedBox(0)

        try dispatcher.batch { batch in
            try dispatcher.dispatch(.first, payload: 100)
            totalAfterPlainDispatch.value = first.state.total
            try batch.dispatch(.first, payload: 2)
        }

        #expect(totalAfterPlainDispatch.value == 1, "queued, not run")
        #expect(changes.values == ["Fluxion.batch 1→3", "batchFirst 3→103"])
        token.cancel()
    }

    @Test func wholeDispatcherObserversHearOneChangePerStore() throws {
        let (dispatcher, _, _) = try makeBatchStores()
        let changes = Recorder<String>()
        let token = dispatcher.observe { change in
            let tally = change.change(as: Tally.self)
            changes.append(
                "\(change.storeType) \(change.action.name) \(tally?.oldState.total ?? -1)→\(tally?.newState.total ?? -1)"
            )
        }

        try dispatcher.batch { batch in
            try batch.dispatch(.first, payload: 2)
            try batch.dispatch(.shared, payload: 3)
            try batch.dispatch(.second, payload: 4)
        }

        #expect(
            changes.values == [
                "BatchFirstStore Fluxion.batch 1→6",
                "BatchSecondStore Fluxion.batch 10→44",
            ])
        token.cancel()
    }

    @Test func observationTrackingIsToldOnceAfterABatchAndNotForAFailedOne() throws {
        let (dispatcher, first, _) = try makeBatchStores()
        let told = Recorder<Int>()
        let track = {
            _ = withObservationTracking {
                first.state
            } onChange: {
                told.append(first.state.total)
            }
        }

        track()
        #expect(throws: TestError("batchFail")) {
            try dispatcher.batch { batch in
                try batch.dispatch(.first, payload: 2)
                try batch.dispatch(.fail)
            }
        }
        // No other thread can have seen a state of the batch: a rollback is no change.
        #expect(told.values == [], "not told: the batch rolled back")
        #expect(first.state.total == 1)

        try dispatcher.batch { batch in
            try batch.dispatch(.first, payload: 2)
            try batch.dispatch(.first, payload: 3)
        }

        #expect(told.values == [6], "told once, after the batch committed")
    }

    @Test func aBatchRunsWhileTheDispatcherIsSuspended() throws {
        let (dispatcher, first, _) = try makeBatchStores()
        let suspension = dispatcher.suspend()
        try dispatcher.dispatch(.first, payload: 100)

        try dispatcher.batch { batch in try batch.dispatch(.first, payload: 2) }

        #expect(first.state.payloads == [1, 2])
        suspension.release()
        #expect(first.state.payloads == [1, 2, 100])
    }

    @Test func theMiddlewareSeesEachActionOfTheBatchAndNoChangesInside() throws {
        let (dispatcher, first, _) = try makeBatchStores()
        let seen = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                let changes = try next(action)
                seen.append("\(action.name) \(changes.count)")
                return changes
            })

        try dispatcher.batch { batch in
            try batch.dispatch(.first, payload: 2)
            try batch.dispatch(.shared, payload: 3)
        }

        #expect(seen.values == ["batchFirst 0", "batchShared 0"])
        #expect(first.state.total == 6)
    }

    @Test func aBatchThatTouchesNoStoreTellsNoObserver() throws {
        let (dispatcher, first, second) = try makeBatchStores()
        let observed = LockedBox(0)
        let tokens = [
            first.observe { _ in observed.withValue { $0 += 1 } },
            second.observe { _ in observed.withValue { $0 += 1 } },
        ]

        try dispatcher.batch { batch in try batch.dispatch(.second, payload: 1) }
        try dispatcher.batch { _ in }

        #expect(observed.value == 1, "only the store whose handler ran")
        for token in tokens { token.cancel() }
    }
}

/// Carries a value that is not `Sendable` to another thread, for tests of misuse.
private final class UncheckedBox<Value>: @unchecked Sendable {  // `value` is immutable; the test joins the thread
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
