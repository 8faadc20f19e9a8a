import Fluxion
import Foundation
import Testing

extension ActionName where Payload == Void {
    fileprivate static var fail: Self { "batchFail" }
}

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct DispatcherBatchErrorTests {
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
}

/// Carries a value that is not `Sendable` to another thread, for tests of misuse.
private final class UncheckedBox<Value>: @unchecked Sendable {  // `value` is immutable; the test joins the thread
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
