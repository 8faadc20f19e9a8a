import Fluxion
import FluxionTesting
import Testing

struct Search: Sendable, Equatable {
    var query = ""
    var results: [String] = []
}

extension ActionName where Payload == String {
    static var search: Self { "testingSearch" }
}

extension ActionName where Payload == [String] {
    static var resultsLoaded: Self { "testingResultsLoaded" }
}

/// Searches 300 ms after the last keystroke, on the clock it is given: a debounce that cancels the search in flight.
final class SearchStore: Store<Search>, @unchecked Sendable {  // locked by Store
    let clock: any Clock<Duration>
    let catalog: [String]

    init(clock: any Clock<Duration>, catalog: [String] = ["milk", "mint", "bread"]) {
        self.clock = clock
        self.catalog = catalog
        super.init(initialState: Search())
    }

    override class var handlers: HandlerTable<Search> {
        HandlerTable()
            .route(.search, to: SearchStore.search)
            .on(.resultsLoaded) { state, action in state.results = action.payload }
    }

    func search(_ state: inout Search, _ action: Action<String>, _ effects: Effects) {
        state.query = action.payload
        let (clock, catalog, query) = (clock, catalog, action.payload)
        effects.run(id: "search", cancelInFlight: true) { dispatcher in
            try await clock.sleep(for: .milliseconds(300))
            try dispatcher.dispatch(.resultsLoaded, payload: catalog.filter { $0.hasPrefix(query) })
        }
    }
}

@Suite(.timeLimit(.minutes(10))) struct TestClockTests {
    private func makeTest() throws -> TestDispatcher {
        let test = TestDispatcher()
        try test.register(SearchStore.self) { SearchStore(clock: test.clock) }
        return test
    }

    @Test func aDebouncedSearchRunsWhenTimeHasPassed() async throws {
        let test = try makeTest()

        try test.dispatch(.search, payload: "mi") { $0.modify(SearchStore.self) { $0.query = "mi" } }
        await test.clock.advance(by: .milliseconds(299))
        #expect(test.dispatcher.runningTaskCount == 1)
        await test.clock.advance(by: .milliseconds(1))

        try await test.receive(.resultsLoaded) { $0.modify(SearchStore.self) { $0.results = ["milk", "mint"] } }
        await test.finish()
    }

    @Test func aTaskThatSleepsAgainIsWokenAgainWithinOneAdvance() async throws {
        let test = TestDispatcher()
        try test.register(CounterStore.self)
        let clock = test.clock
        test.dispatcher.dispatchTask(id: "timer") { dispatcher in
            for _ in 1...3 {
                try await clock.sleep(for: .seconds(1))
                try dispatcher.dispatch(.add, payload: 1)
            }
        }

        await test.clock.advance(by: .seconds(3))

        for count in 1...3 { try await test.receive(.add) { $0.modify(CounterStore.self) { $0.count = count } } }
        #expect(test.clock.now == TestClock.Instant(offset: .seconds(3)))
        await test.finish()
    }

    @Test func runAdvancesUntilNothingWaits() async throws {
        let test = try makeTest()

        try test.dispatch(.search, payload: "b") { $0.modify(SearchStore.self) { $0.query = "b" } }
        await test.clock.run()

        try await test.receive(.resultsLoaded) { $0.modify(SearchStore.self) { $0.results = ["bread"] } }
        #expect(test.clock.now.offset == .milliseconds(300))
        await test.finish()
    }

    @Test func cancellingASleepingTaskEndsItAtOnce() async throws {
        let test = try makeTest()

        try test.dispatch(.search, payload: "m") { $0.modify(SearchStore.self) { $0.query = "m" } }
        test.dispatcher.cancelTasks(id: "search")

        await test.finish()  // fails if the cancelled task kept sleeping
        #expect(test.clock.pendingCount == 0)
    }

    @Test func aTaskThatWaitsForSomethingElseFailsTheAdvance() async throws {
        let test = try makeTest()
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let task = test.dispatcher.dispatchTask { _ in
            for await _ in stream { return }
        }

        await withKnownIssue {
            await test.clock.advance(by: .seconds(1), timeout: .milliseconds(20))
        } matching: { issue in
            "\(issue)".contains("1 task(s) neither ended nor slept on the test clock in time")
        }
        continuation.finish()
        _ = try await task.value
    }

    @Test func aSaveScheduledOnTheClockRunsWhenTimePassesItsDeadline() async throws {
        let clock = TestClock()
        let ran = AsyncStream.makeStream(of: Int.self)
        clock.persistenceScheduler.schedule(after: .seconds(2)) { ran.continuation.yield(2) }
        clock.persistenceScheduler.schedule(after: .seconds(1)) { ran.continuation.yield(1) }

        await clock.advance(by: .seconds(1))
        #expect(clock.pendingCount == 1)
        await clock.advance(by: .seconds(1))
        ran.continuation.finish()

        var order: [Int] = []
        for await value in ran.stream { order.append(value) }
        #expect(order == [1, 2])
        #expect(clock.persistenceScheduler.now == .seconds(2))
    }

    @Test func aSleepPastItsDeadlineReturnsAtOnce() async throws {
        let clock = TestClock()
        await clock.advance(by: .seconds(5))
        try await clock.sleep(until: TestClock.Instant(offset: .seconds(1)))
        #expect(clock.pendingCount == 0)
    }
}

@Test(.timeLimit(.minutes(10))) func aTimerThatNeverStopsFailsTheRun() async throws {
    let test = TestDispatcher()
    try test.register(CounterStore.self)
    let clock = test.clock
    test.dispatcher.dispatchTask(id: "timer") { dispatcher in
        while true {
            try await clock.sleep(for: .seconds(1))
            try dispatcher.dispatch(.add, payload: 1)
        }
    }

    await withKnownIssue {
        await test.clock.run(timeout: .milliseconds(50))
    } matching: { issue in
        "\(issue)".contains("1 sleep(s) or save(s) still wait after")
    }
    test.dispatcher.cancelAllTasks()
    await test.dispatcher.waitUntilDrained()
}

@Test func aNewKeystrokeCancelsTheSearchInFlight() async throws {
    let test = TestDispatcher()
    try test.register(SearchStore.self) { SearchStore(clock: test.clock) }

    try test.dispatch(.search, payload: "m") { $0.modify(SearchStore.self) { $0.query = "m" } }
    await test.clock.advance(by: .milliseconds(200))
    try test.dispatch(.search, payload: "mil") { $0.modify(SearchStore.self) { $0.query = "mil" } }
    await test.clock.advance(by: .milliseconds(300))

    try await test.receive(.resultsLoaded) { $0.modify(SearchStore.self) { $0.results = ["milk"] } }
    await test.finish()
}
