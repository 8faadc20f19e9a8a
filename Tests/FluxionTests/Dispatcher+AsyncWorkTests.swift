import Fluxion
import Testing

extension ActionName where Payload == Int {
    fileprivate static var add: Self { "asyncWorkAdd" }
}

extension ActionName where Payload == [Int]? {
    fileprivate static var loaded: Self { "asyncWorkLoaded" }
}

/// One `.loaded` action as its handler saw it.
struct LoadOutcome: Sendable, Equatable {
    var payload: [Int]?
    var error: String?
}

struct AsyncWorkState: Sendable, Equatable {
    var total = 0
    var loads: [LoadOutcome] = []
}

/// Adds `.add` payloads, and lists each `.loaded` action's payload and error.
final class AsyncWorkStore: Store<AsyncWorkState>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: AsyncWorkState()) }

    override class var handlers: HandlerTable<AsyncWorkState> {
        HandlerTable()
            .on(.add) { state, action in state.total += action.payload }
            .on(.loaded) { state, action in
                state.loads.append(LoadOutcome(payload: action.payload, error: action.error.map { "\($0)" }))
            }
    }
}

/// A new dispatcher with an ``AsyncWorkStore``, created.
private func makeAsyncWorkStore() throws -> (Dispatcher, AsyncWorkStore) {
    let dispatcher = Dispatcher()
    try dispatcher.register(AsyncWorkStore.self)
    return (dispatcher, try dispatcher.store(AsyncWorkStore.self))
}

@Suite(.timeLimit(.minutes(10))) struct DispatcherAsyncWorkTests {
    @Test func aThunkDispatchesReadsStoresAndReturnsItsValue() throws {
        let (dispatcher, store) = try makeAsyncWorkStore()

        let total = try dispatcher.perform { dispatcher in
            try dispatcher.dispatch(.add, payload: 2)
            try dispatcher.dispatch(.add, payload: 3)
            return try dispatcher.store(AsyncWorkStore.self).state.total
        }

        #expect(total == 5)
        #expect(store.state.total == 5)
    }

    @Test func aThunkRethrowsItsError() throws {
        let (dispatcher, store) = try makeAsyncWorkStore()

        #expect(throws: TestError("thunk")) {
            try dispatcher.perform { dispatcher in
                try dispatcher.dispatch(.add, payload: 1)
                throw TestError("thunk")
            }
        }
        #expect(store.state.total == 1, "what the thunk dispatched before throwing stays")
    }

    @Test func aThunkThatCannotThrowNeedsNoTry() throws {
        let (dispatcher, _) = try makeAsyncWorkStore()

        let value = dispatcher.perform { dispatcher in dispatcher.isDispatching ? 1 : 2 }

        #expect(value == 2)
    }

    @Test func dispatchTaskValueIsTheWorksResult() async throws {
        let (dispatcher, store) = try makeAsyncWorkStore()

        let task = dispatcher.dispatchTask { dispatcher in
            try dispatcher.dispatch(.add, payload: 4)
            return try dispatcher.store(AsyncWorkStore.self).state.total * 10
        }

        #expect(try await task.value == 40)
        #expect(store.state.total == 4)
    }

    @Test func dispatchTaskThrowsTheWorksError() async throws {
        let (dispatcher, _) = try makeAsyncWorkStore()

        let task = dispatcher.dispatchTask(priority: .low) { _ -> Int in throw TestError("work") }

        await #expect(throws: TestError("work")) { try await task.value }
    }

    @Test func aResultDispatchesThePayloadOnSuccessAndNilAndTheErrorOnFailure() throws {
        let (dispatcher, store) = try makeAsyncWorkStore()
        let names = Recorder<String>()
        let token = store.observe { names.append($0.action.name) }

        try dispatcher.dispatch(.loaded, result: .success([1, 2]))
        try dispatcher.dispatch(.loaded, result: .failure(TestError("offline")))

        #expect(
            store.state.loads == [
                LoadOutcome(payload: [1, 2], error: nil),
                LoadOutcome(payload: nil, error: "TestError(offline)"),
            ])
        #expect(names.values == ["asyncWorkLoaded", "asyncWorkLoaded"])
        token.cancel()
    }

    @Test func aTaskReportsItsOutcomeAsAResult() async throws {
        let (dispatcher, store) = try makeAsyncWorkStore()
        let fetch: @Sendable (Bool) async throws -> [Int] = { succeeds in
            guard succeeds else { throw TestError("fetch") }
            return [7]
        }

        for succeeds in [true, false] {
            let task = dispatcher.dispatchTask { dispatcher in
                let result: Result<[Int], any Error>
                do {
                    result = .success(try await fetch(succeeds))
                } catch {
                    result = .failure(error)
                }
                try dispatcher.dispatch(.loaded, result: result)
            }
            try await task.value
        }

        #expect(
            store.state.loads == [
                LoadOutcome(payload: [7], error: nil),
                LoadOutcome(payload: nil, error: "TestError(fetch)"),
            ])
    }

    @Test func aCancelledTaskThrowsCancellationError() async throws {
        let (dispatcher, store) = try makeAsyncWorkStore()
        let (resume, resumeContinuation) = AsyncStream.makeStream(of: Void.self)

        let task = dispatcher.dispatchTask { dispatcher in
            try dispatcher.dispatch(.add, payload: 1)
            for await _ in resume { break }
            try Task.checkCancellation()
            try dispatcher.dispatch(.add, payload: 100)
            return "finished"
        }
        task.cancel()
        resumeContinuation.yield()  // NB: after the cancel, so the work finds itself cancelled either way

        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(store.state.total == 1)
        resumeContinuation.finish()
    }
}
