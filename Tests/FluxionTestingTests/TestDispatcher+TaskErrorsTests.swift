import Fluxion
import FluxionTesting
import Testing

@Suite(.timeLimit(.minutes(10))) struct TestDispatcherTaskErrorsTests {
    private func makeTest() throws -> TestDispatcher {
        let test = TestDispatcher()
        try test.register(CounterStore.self)
        try test.register(LogStore.self)
        return test
    }

    /// Starts a task under `id` that throws `SearchFailure.offline`, and waits until it has ended.
    private func failSearch(on test: TestDispatcher, id: String = "search") async {
        let task = test.dispatcher.dispatchTask(id: id) { _ in throw SearchFailure.offline }
        _ = try? await task.value
    }

    @Test func aTaskErrorNotReceivedFailsTheFinish() async throws {
        let test = try makeTest()
        test.dispatcher.dispatchTask(id: "search") { _ in throw SearchFailure.offline }

        await withKnownIssue {
            await test.finish()
        } matching: { issue in
            "\(issue)".contains(#"a task error was not received by the end of the test: task "search" failed: offline"#)
        }
    }

    @Test func aTaskErrorNotReceivedFailsTheFinishOfANonExhaustiveTest() async throws {
        let test = TestDispatcher(exhaustivity: .off)
        await failSearch(on: test)

        await withKnownIssue {
            await test.finish()
        } matching: { issue in
            "\(issue)".contains(#"a task error was not received by the end of the test: task "search" failed"#)
        }
    }

    @Test func eachTaskErrorNotReceivedFailsTheFinish() async throws {
        let test = try makeTest()
        await failSearch(on: test, id: "first")
        await failSearch(on: test, id: "second")

        await withKnownIssue {
            await test.finish()
        } matching: { issue in
            "\(issue)".contains(#"task "first" failed"#) || "\(issue)".contains(#"task "second" failed"#)
        }
    }

    @Test func aReceivedTaskErrorPasses() async throws {
        let test = try makeTest()
        test.dispatcher.dispatchTask(id: "search") { _ in throw SearchFailure.offline }

        try await test.receiveTaskError(id: "search", kind: .threw) { error in
            #expect(error.error as? SearchFailure == .offline)
        }
        await test.finish()
    }

    @Test func aTaskErrorOfAnotherTaskFailsTheReceive() async throws {
        let test = try makeTest()
        await failSearch(on: test)

        try await withKnownIssue {
            try await test.receiveTaskError(id: "save")
        } matching: { issue in
            "\(issue)".contains(
                #"expected a task error of task "save", but received: task "search" failed: offline"#)
        }
        await test.finish()
    }

    @Test func aTaskErrorOfAnotherKindFailsTheReceive() async throws {
        let test = try makeTest()
        await failSearch(on: test)

        try await withKnownIssue {
            try await test.receiveTaskError(kind: .refused)
        } matching: { issue in
            "\(issue)".contains(
                #"expected a refused dispatch of a task, but received: task "search" failed: offline"#)
        }
        await test.finish()
    }

    @Test func aTaskErrorThatNeverComesFailsTheReceive() async throws {
        let test = try makeTest()

        try await withKnownIssue {
            try await test.receiveTaskError(id: "search", timeout: .milliseconds(10))
        } matching: { issue in
            "\(issue)".contains(#"expected a task error of task "search", but none came within"#)
        }
        await test.finish()
    }

    @Test func aDispatchRefusedBecauseItsTaskWasCancelledIsATaskError() async throws {
        let test = try makeTest()
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        defer { continuation.finish() }
        test.dispatcher.dispatchTask(id: "search") { dispatcher in
            for await _ in stream {}  // until cancelled
            try dispatcher.dispatch(.add, payload: 1)
        }

        test.dispatcher.cancelTasks(id: "search")

        try await test.receiveTaskError(id: "search", kind: .refused) { error in
            #expect(error.action == ActionName<Int>.add.rawValue)
            #expect(error.error is CancellationError)
        }
        await test.finish()
    }

    @Test func aPendingTaskErrorFailsNeitherADispatchNorAReceive() async throws {
        let test = try makeTest()
        await failSearch(on: test)

        try test.dispatch(.addTwice, payload: 1) { $0.modify(CounterStore.self) { $0.count = 1 } }
        try await test.receive(.add) {
            $0.modify(CounterStore.self) { $0.count = 2 }
            $0.modify(LogStore.self) { $0.lines = ["add 1"] }
        }
        try await test.receiveTaskError(id: "search")
        await test.finish()
    }

    @Test func aReceiveThatTimesOutListsThePendingTaskErrors() async throws {
        let test = try makeTest()
        await failSearch(on: test)

        try await withKnownIssue {
            try await test.receive(.add, timeout: .milliseconds(10))
        } matching: { issue in
            let text = "\(issue)"
            return text.contains("expected to receive testingAdd, but no action came within")
                && text.contains(#"task errors not received yet: task "search" failed: offline"#)
        }
        try await test.receiveTaskError(id: "search")
        await test.finish()
    }
}
