import Fluxion
import FluxionTesting
import Foundation
import Testing

struct Counter: Sendable, Equatable {
    var count = 0
    var label = ""
}

struct Log: Sendable, Equatable {
    var lines: [String] = []
}

extension ActionName where Payload == Int {
    static var add: Self { "testingAdd" }
    static var addTwice: Self { "testingAddTwice" }
    static var loadLater: Self { "testingLoadLater" }
}

extension ActionName where Payload == String {
    static var label: Self { "testingLabel" }
}

/// Counts; `.addTwice` adds, then queues a second `.add`.
final class CounterStore: Store<Counter>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Counter()) }

    override class var handlers: HandlerTable<Counter> {
        HandlerTable()
            .on(.add) { state, action in state.count += action.payload }
            .on(.label) { state, action in state.label = action.payload }
            .route(.addTwice, to: CounterStore.addTwice)
    }

    func addTwice(_ state: inout Counter, _ action: Action<Int>) throws {
        state.count += action.payload
        try dispatcher?.dispatch(.add, payload: action.payload)
    }
}

/// Logs every `.add`.
final class LogStore: Store<Log>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Log()) }

    override class var handlers: HandlerTable<Log> {
        HandlerTable().on(.add) { state, action in state.lines.append("add \(action.payload)") }
    }
}

@Suite(.timeLimit(.minutes(10))) struct TestDispatcherTests {
    private func makeTest(_ exhaustivity: TestDispatcher.Exhaustivity = .on) throws -> TestDispatcher {
        let test = TestDispatcher(exhaustivity: exhaustivity)
        try test.register(CounterStore.self)
        try test.register(LogStore.self)
        return test
    }

    @Test func anExpectationThatSaysEveryChangePasses() async throws {
        let test = try makeTest()

        try test.dispatch(.add, payload: 2) {
            $0.modify(CounterStore.self) { $0.count = 2 }
            $0.modify(LogStore.self) { $0.lines.append("add 2") }
        }
        try test.dispatch(.label, payload: "two") {
            $0.modify(CounterStore.self) { $0.label = "two" }
        }
        await test.finish()
    }

    @Test func aStoreThatChangedUnsaidFails() async throws {
        let test = try makeTest()

        try withKnownIssue {
            try test.dispatch(.add, payload: 2) {
                $0.modify(CounterStore.self) { $0.count = 2 }
            }
        } matching: { issue in
            "\(issue)".contains("changed LogStore but the expectation did not say so")
                && "\(issue)".contains(#"lines[0]: + "add 2""#)
        }
        await test.finish()
    }

    @Test func aFieldThatDiffersFailsWithItsDiff() async throws {
        let test = try makeTest()

        try withKnownIssue {
            try test.dispatch(.label, payload: "two") {
                $0.modify(CounterStore.self) { $0.label = "three" }
            }
        } matching: { issue in
            "\(issue)".contains("changed CounterStore other than expected")
                && "\(issue)".contains(#"label: "three" → "two""#)
        }
    }

    @Test func aChangeExpectedThatDidNotHappenFails() async throws {
        let test = try makeTest()

        try withKnownIssue {
            try test.dispatch(.label, payload: "two") {
                $0.modify(CounterStore.self) { $0.label = "two" }
                $0.modify(LogStore.self) { $0.lines = ["label two"] }
            }
        } matching: { issue in
            "\(issue)".contains("testingLabel(two) did not change LogStore, but the expectation changed it")
                && "\(issue)".contains(#"lines[0]: - "label two""#)
        }
        await test.finish()
    }

    @Test func aSeededStoreStartsFromItsSeed() async throws {
        let test = TestDispatcher()
        try test.register(CounterStore.self, initialState: Counter(count: 40, label: "seeded"))

        try test.dispatch(.label, payload: "x") { $0.modify(CounterStore.self) { $0.label = "x" } }

        #expect(try test.dispatcher.store(CounterStore.self).state == Counter(count: 40, label: "x"))
    }

    @Test func queuedActionsMustBeReceivedInOrder() async throws {
        let test = try makeTest()

        try test.dispatch(.addTwice, payload: 1) { $0.modify(CounterStore.self) { $0.count = 1 } }
        try await test.receive(.add) {
            $0.modify(CounterStore.self) { $0.count = 2 }
            $0.modify(LogStore.self) { $0.lines = ["add 1"] }
        }
        await test.finish()
    }

    @Test func anUnreceivedActionFailsTheFinish() async throws {
        let test = try makeTest()

        try test.dispatch(.addTwice, payload: 1) { $0.modify(CounterStore.self) { $0.count = 1 } }

        await withKnownIssue {
            await test.finish()
        } matching: { issue in
            "\(issue)".contains("were not received at the end of the test: testingAdd(1)")
        }
    }

    @Test func receivingAnotherActionFails() async throws {
        let test = try makeTest()
        try test.dispatch(.addTwice, payload: 1) { $0.modify(CounterStore.self) { $0.count = 1 } }

        try await withKnownIssue {
            try await test.receive(.label)
        } matching: { issue in
            "\(issue)".contains("expected to receive testingLabel, but received testingAdd(1)")
        }
    }

    @Test func anActionFromATaskIsReceived() async throws {
        let test = try makeTest()

        test.dispatcher.dispatchTask { dispatcher in
            await Task.yield()
            try dispatcher.dispatch(.add, payload: 5)
        }

        try await test.receive(.add) {
            $0.modify(CounterStore.self) { $0.count = 5 }
            $0.modify(LogStore.self) { $0.lines = ["add 5"] }
        }
        await test.finish()
    }

    @Test func anActionThatNeverComesFailsTheReceive() async throws {
        let test = try makeTest()

        try await withKnownIssue {
            try await test.receive(.add, timeout: .milliseconds(10))
        } matching: { issue in
            "\(issue)".contains("expected to receive testingAdd, but no action came within")
        }
    }

    @Test func aTaskStillRunningFailsTheFinish() async throws {
        let test = try makeTest()
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let task = test.dispatcher.dispatchTask { _ in
            for await _ in stream { return }
        }

        await withKnownIssue {
            await test.finish(timeout: .milliseconds(10))
        } matching: { issue in
            "\(issue)".contains("task(s) started with dispatchTask still run")
        }
        continuation.finish()
        _ = try await task.value
    }

    @Test func notExhaustiveChecksOnlyWhatItIsTold() async throws {
        let test = try makeTest(.off)

        try test.dispatch(.addTwice, payload: 1) { $0.modify(CounterStore.self) { $0.count = 1 } }
        try test.dispatch(.add, payload: 1) { $0.modify(CounterStore.self) { $0.count = 3 } }
        await test.finish()
    }
}

// readme-begin
@Test func addingCountsAndLogs() async throws {
    let test = TestDispatcher()
    try test.register(CounterStore.self)
    try test.register(LogStore.self)

    try test.dispatch(.add, payload: 2) {
        $0.modify(CounterStore.self) { $0.count = 2 }
        $0.modify(LogStore.self) { $0.lines.append("add 2") }
    }
    await test.finish()
}
// readme-end

@Test func theReadmeAndTheArticleShowTheTestingExampleVerbatim() throws {
    let testFile = URL(fileURLWithPath: #filePath)
    let root = testFile.deletingLastPathComponent().appendingPathComponent("../..")
    let readme = root.appendingPathComponent("README.md")
    let article = root.appendingPathComponent("Sources/Fluxion/Fluxion.docc/TestingYourStores.md")
    let source = try String(contentsOf: testFile, encoding: .utf8)
    let example = try #require(
        source.components(separatedBy: "// readme-begin\n").last?.components(separatedBy: "// readme-end").first)

    #expect(try String(contentsOf: readme, encoding: .utf8).contains(example))
    #expect(try String(contentsOf: article, encoding: .utf8).contains(example))
}
