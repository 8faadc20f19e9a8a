import Fluxion
import FluxionTesting
import Testing

/// What ``ThrowingMiddleware`` throws.
struct MiddlewareFailure: Error, Equatable {}

/// Throws for every `.add`: before passing it on, so that it never reaches the stores, or after, once it
/// has committed.
struct ThrowingMiddleware: Middleware {
    enum Moment: Sendable {
        case beforeNext
        case afterNext
    }

    let moment: Moment

    func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
        guard action.name == ActionName<Int>.add.rawValue else { return try next(action) }
        if moment == .beforeNext { throw MiddlewareFailure() }
        _ = try next(action)
        throw MiddlewareFailure()
    }
}

/// Where a middleware sits in the chain, beside the test dispatcher's recorder.
enum MiddlewarePlacement: Sendable, CaseIterable {
    /// Added to the test dispatcher's dispatcher: it runs inside the recorder.
    case inner
    /// Added to the dispatcher before the test dispatcher was made over it: it runs outside the recorder.
    case outer
}

@Suite(.timeLimit(.minutes(10))) struct TestDispatcherDispatchingTests {
    private func makeTest(throwing moment: ThrowingMiddleware.Moment, _ placement: MiddlewarePlacement) throws
        -> TestDispatcher
    {
        let dispatcher = Dispatcher()
        if placement == .outer { dispatcher.addMiddleware(ThrowingMiddleware(moment: moment)) }
        let test = TestDispatcher(dispatcher)
        if placement == .inner { dispatcher.addMiddleware(ThrowingMiddleware(moment: moment)) }
        try test.register(CounterStore.self)
        try test.register(LogStore.self)
        return test
    }

    @Test(arguments: MiddlewarePlacement.allCases)
    func anActionThatCommitsThenThrowsIsCheckedBeforeTheErrorIsRethrown(_ placement: MiddlewarePlacement)
        async throws
    {
        let test = try makeTest(throwing: .afterNext, placement)

        #expect(throws: MiddlewareFailure()) {
            try test.dispatch(.add, payload: 2) {
                $0.modify(CounterStore.self) { $0.count = 2 }
                $0.modify(LogStore.self) { $0.lines = ["add 2"] }
            }
        }
        try test.dispatch(.label, payload: "two") { $0.modify(CounterStore.self) { $0.label = "two" } }
        await test.finish()
    }

    @Test(arguments: MiddlewarePlacement.allCases)
    func aChangeCommittedBeforeTheThrowMustBeExpected(_ placement: MiddlewarePlacement) async throws {
        let test = try makeTest(throwing: .afterNext, placement)

        withKnownIssue {
            #expect(throws: MiddlewareFailure()) {
                try test.dispatch(.add, payload: 2) { $0.modify(CounterStore.self) { $0.count = 2 } }
            }
        } matching: { issue in
            "\(issue)".contains(
                "testingAdd(2), which threw MiddlewareFailure(), changed LogStore but the expectation did not say so")
        }
        try test.dispatch(.label, payload: "two") { $0.modify(CounterStore.self) { $0.label = "two" } }
        await test.finish()
    }

    @Test(arguments: MiddlewarePlacement.allCases)
    func anActionRefusedBeforeItCommittedMustLeaveTheStoresUnchanged(_ placement: MiddlewarePlacement)
        async throws
    {
        let test = try makeTest(throwing: .beforeNext, placement)

        withKnownIssue {
            #expect(throws: MiddlewareFailure()) {
                try test.dispatch(.add, payload: 2) { $0.modify(CounterStore.self) { $0.count = 2 } }
            }
        } matching: { issue in
            let text = "\(issue)"
            return text.contains("which threw MiddlewareFailure(), did not change CounterStore, but the expectation")
                && text.contains("count: 2 → 0")
        }
        #expect(throws: MiddlewareFailure()) { try test.dispatch(.add, payload: 2) }
        await test.finish()
    }

    @Test func aBatchThatFailsMustLeaveTheStoresUnchanged() async throws {
        let test = try makeTest(throwing: .afterNext, .inner)
        struct Refused: Error {}

        withKnownIssue {
            #expect(throws: Refused.self) {
                try test.batch { batch in
                    try batch.dispatch(.label, payload: "one")
                    throw Refused()
                } expecting: {
                    $0.modify(CounterStore.self) { $0.label = "one" }
                }
            }
        } matching: { issue in
            let text = "\(issue)"
            return text.contains("Fluxion.batch, which threw Refused(), did not change CounterStore")
                && text.contains(#"label: "one" → """#)
        }
        await test.finish()
    }

    @Test(arguments: MiddlewarePlacement.allCases)
    func aTaskActionThatCommitsThenThrowsMustBeReceived(_ placement: MiddlewarePlacement) async throws {
        let test = try makeTest(throwing: .afterNext, placement)

        test.dispatcher.dispatchTask(id: "adder") { dispatcher in
            try dispatcher.dispatch(.add, payload: 3)
        }

        try await test.receive(.add) {
            $0.modify(CounterStore.self) { $0.count = 3 }
            $0.modify(LogStore.self) { $0.lines = ["add 3"] }
        }
        try await test.receiveTaskError(id: "adder", kind: .threw) { #expect($0.error is MiddlewareFailure) }
        await test.finish()
    }
}
