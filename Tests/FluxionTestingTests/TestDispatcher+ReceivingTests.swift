import Fluxion
import FluxionTesting
import Testing

/// Why a search failed.
enum SearchFailure: Error, Equatable {
    case offline
    case timedOut
}

extension ActionName where Payload == [String]? {
    static var searchFinished: Self { "testingSearchFinished" }
}

@Suite(.timeLimit(.minutes(10))) struct TestDispatcherReceivingTests {
    private func makeTest() throws -> TestDispatcher {
        let test = TestDispatcher()
        try test.register(CounterStore.self)
        try test.register(LogStore.self)
        return test
    }

    /// Starts a task that dispatches `.searchFinished` with `payload` and `error`.
    private func finishSearch(on test: TestDispatcher, payload: [String]?, error: SearchFailure? = nil) {
        test.dispatcher.dispatchTask { dispatcher in
            try dispatcher.dispatch(.searchFinished, payload: payload, error: error)
        }
    }

    @Test func anActionWithTheExpectedPayloadIsReceived() async throws {
        let test = try makeTest()
        try test.dispatch(.addTwice, payload: 2) { $0.modify(CounterStore.self) { $0.count = 2 } }

        try await test.receive(.add, payload: 2) {
            $0.modify(CounterStore.self) { $0.count = 4 }
            $0.modify(LogStore.self) { $0.lines = ["add 2"] }
        }
        await test.finish()
    }

    @Test func anActionWithAnotherPayloadFailsTheReceive() async throws {
        let test = try makeTest()
        try test.dispatch(.addTwice, payload: 2) { $0.modify(CounterStore.self) { $0.count = 2 } }

        try await withKnownIssue {
            try await test.receive(.add, payload: 3)
        } matching: { issue in
            "\(issue)".contains("expected to receive testingAdd(3), but received testingAdd(2)")
        }
    }

    @Test func anActionWithTheExpectedPayloadAndErrorIsReceived() async throws {
        let test = try makeTest()
        finishSearch(on: test, payload: nil, error: .offline)

        try await test.receive(.searchFinished, payload: nil, error: SearchFailure.offline)
        await test.finish()
    }

    @Test func anActionWithAnErrorFailsAReceiveOfThePayloadAlone() async throws {
        let test = try makeTest()
        finishSearch(on: test, payload: nil, error: .offline)

        try await withKnownIssue {
            try await test.receive(.searchFinished, payload: nil)
        } matching: { issue in
            "\(issue)".contains(
                "expected to receive testingSearchFinished(nil), but received testingSearchFinished(nil) error: offline"
            )
        }
    }

    @Test func theErrorAloneCanBeExpected() async throws {
        let test = try makeTest()
        finishSearch(on: test, payload: ["stale"], error: .timedOut)

        try await test.receive(.searchFinished, error: SearchFailure.timedOut)
        await test.finish()
    }

    @Test func anActionWithAnotherErrorFailsTheReceive() async throws {
        let test = try makeTest()
        finishSearch(on: test, payload: nil, error: .timedOut)

        try await withKnownIssue {
            try await test.receive(.searchFinished, error: SearchFailure.offline)
        } matching: { issue in
            "\(issue)".contains(
                "expected to receive testingSearchFinished(…) error: offline, but received testingSearchFinished(nil) error: timedOut"
            )
        }
    }

    @Test func anActionWithoutAnErrorFailsAReceiveOfAnError() async throws {
        let test = try makeTest()
        finishSearch(on: test, payload: nil)

        try await withKnownIssue {
            try await test.receive(.searchFinished, payload: nil, error: SearchFailure.offline)
        } matching: { issue in
            "\(issue)".hasSuffix(
                "expected to receive testingSearchFinished(nil) error: offline, but received testingSearchFinished(nil)"
            )
        }
    }

    /// An optional payload prints as the value it holds, as the test wrote it: not `Optional(["milk"])`.
    @Test func aFailedReceiveOfAnOptionalPayloadPrintsItPlainly() async throws {
        let test = try makeTest()
        finishSearch(on: test, payload: ["tea"])

        try await withKnownIssue {
            try await test.receive(.searchFinished, payload: ["milk"])
        } matching: { issue in
            "\(issue)".contains(
                #"expected to receive testingSearchFinished(["milk"]), but received testingSearchFinished(["tea"])"#)
                && !"\(issue)".contains("Optional")
        }
    }

    @Test func aMismatchedActionIsNotReceivedAgain() async throws {
        let test = try makeTest()
        try test.dispatch(.addTwice, payload: 2) { $0.modify(CounterStore.self) { $0.count = 2 } }

        try await withKnownIssue {
            try await test.receive(.add, payload: 3)
        } matching: { issue in
            "\(issue)".contains("but received testingAdd(2)")
        }
        try test.dispatch(.label, payload: "after") { $0.modify(CounterStore.self) { $0.label = "after" } }
        await test.finish()
    }
}
