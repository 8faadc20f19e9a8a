import Fluxion
import FluxionTesting
import Testing

private struct Timeout: Error {}

/// Returns `response` after `delay` on `clock`.
private func respond(_ response: String, after delay: Duration, on clock: TestClock) async throws -> String {
    try await clock.sleep(for: delay)
    return response
}

/// Throws ``Timeout`` after `delay` on `clock`.
private func timeOut(after delay: Duration, on clock: TestClock) async throws -> String {
    try await clock.sleep(for: delay)
    throw Timeout()
}

/// Keeps the responses it is given: a default actor that a child task calls after waking.
private actor ResponseCache {
    private(set) var kept: [String] = []

    func keep(_ response: String) -> String {
        kept.append(response)
        return response
    }
}

/// Returns `response` after `delay` on `clock`, once `cache` has kept it.
private func respond(
    _ response: String, after delay: Duration, on clock: TestClock, keptIn cache: ResponseCache
) async throws -> String {
    await cache.keep(try await respond(response, after: delay, on: clock))
}

/// Returns a value and tells a waiter it has: a child task that ends at once.
private final class OneShot: Sendable {
    private let stream = AsyncStream.makeStream(of: Void.self)

    func note(_ value: String) -> String {
        stream.continuation.yield()
        return value
    }

    func wait() async {
        for await _ in stream.stream { return }
    }
}

/// The clock of a test dispatcher waits for the child tasks of the dispatcher's tasks, not only for their sleeps.
@Suite(.timeLimit(.minutes(10))) struct TestClockChildTaskTests {
    private func makeTest() throws -> TestDispatcher {
        let test = TestDispatcher()
        try test.register(CounterStore.self)
        return test
    }

    /// The dispatcher's `CounterStore` label now, read without waiting.
    private func label(of test: TestDispatcher) throws -> String {
        try test.dispatcher.store(CounterStore.self).state.label
    }

    /// Starts a task that races a response (100 ms) against a timeout (5 s) in a task group, and dispatches
    /// the winner as `.label`.
    private func startTaskGroupRace(on test: TestDispatcher) {
        let clock = test.clock
        test.dispatcher.dispatchTask(id: "load") { dispatcher in
            try await withThrowingTaskGroup(of: String.self) { group in
                group.addTask { try await respond("loaded", after: .milliseconds(100), on: clock) }
                group.addTask { try await timeOut(after: .seconds(5), on: clock) }
                guard let response = try await group.next() else { return }
                group.cancelAll()
                try dispatcher.dispatch(.label, payload: response)
            }
        }
    }

    @Test func aResponseThatRacesATimeoutInATaskGroupIsDispatchedWithinTheAdvance() async throws {
        let test = try makeTest()
        startTaskGroupRace(on: test)

        await test.clock.advance(by: .milliseconds(100))

        #expect(try label(of: test) == "loaded")
        #expect(test.clock.pendingCount == 0)
        try await test.receive(.label) { $0.modify(CounterStore.self) { $0.label = "loaded" } }
        await test.finish()
    }

    @Test func aResponseThatRacesATimeoutInAsyncLetsIsDispatchedWithinTheAdvance() async throws {
        let test = try makeTest()
        let clock = test.clock
        test.dispatcher.dispatchTask(id: "load") { dispatcher in
            async let _ = timeOut(after: .seconds(5), on: clock)
            async let response = respond("loaded", after: .milliseconds(100), on: clock)
            try dispatcher.dispatch(.label, payload: try await response)
        }

        await test.clock.advance(by: .milliseconds(100))

        #expect(try label(of: test) == "loaded")
        #expect(test.clock.pendingCount == 0)
        try await test.receive(.label) { $0.modify(CounterStore.self) { $0.label = "loaded" } }
        await test.finish()
    }

    @Test func aChildTaskThatCallsAnActorAfterWakingSettlesWithinTheAdvance() async throws {
        let test = try makeTest()
        let clock = test.clock
        let cache = ResponseCache()
        test.dispatcher.dispatchTask(id: "load") { dispatcher in
            async let _ = timeOut(after: .seconds(5), on: clock)
            async let response = respond("loaded", after: .milliseconds(100), on: clock, keptIn: cache)
            try dispatcher.dispatch(.label, payload: try await response)
        }

        await test.clock.advance(by: .milliseconds(100))

        #expect(try label(of: test) == "loaded")
        #expect(await cache.kept == ["loaded"])
        try await test.receive(.label) { $0.modify(CounterStore.self) { $0.label = "loaded" } }
        await test.finish()
    }

    @Test func aTaskWhoseOtherChildStillSleepsSettlesWithinTheAdvance() async throws {
        let test = try makeTest()
        let clock = test.clock
        test.dispatcher.dispatchTask(id: "two sleeps") { dispatcher in
            async let short = respond("short", after: .seconds(1), on: clock)
            async let long = respond("long", after: .seconds(5), on: clock)
            try dispatcher.dispatch(.label, payload: try await short)
            try dispatcher.dispatch(.label, payload: try await long)
        }

        await test.clock.advance(by: .seconds(1))

        #expect(try label(of: test) == "short")
        #expect(test.clock.pendingCount == 1)
        #expect(test.dispatcher.runningTaskCount == 1)
        try await test.receive(.label) { $0.modify(CounterStore.self) { $0.label = "short" } }

        await test.clock.advance(by: .seconds(4))

        #expect(try label(of: test) == "long")
        try await test.receive(.label) { $0.modify(CounterStore.self) { $0.label = "long" } }
        await test.finish()
    }

    @Test func aTaskThatKeepsRunningWithoutSleepingFailsTheAdvance() async throws {
        let test = try makeTest()
        let task = test.dispatcher.dispatchTask(id: "spin") { _ in
            while !Task.isCancelled { await Task.yield() }
        }

        await withKnownIssue {
            await test.clock.advance(by: .seconds(1), timeout: .milliseconds(20))
        } matching: { issue in
            let description = "\(issue)"
            guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
                return description.contains("1 task(s) neither ended nor slept on the test clock in time")
            }
            return description.contains("the tasks neither ended nor slept on the test clock in time: they still run")
        }
        task.cancel()
        _ = try await task.value
        await test.finish()
    }

    /// What the clock cannot see: a child task waiting on something else while its sibling sleeps on the
    /// clock. The task counts as settled until nothing of it sleeps on the clock; then the advance fails.
    @Test func aChildWaitingElsewhereFailsTheAdvanceOnceItsSleepingSiblingHasWoken() async throws {
        let test = try makeTest()
        let clock = test.clock
        let (elsewhere, answer) = AsyncStream.makeStream(of: String.self)
        let task = test.dispatcher.dispatchTask(id: "two waits") { dispatcher in
            async let slept = respond("slept", after: .seconds(1), on: clock)
            async let other = elsewhere.first { _ in true }
            try dispatcher.dispatch(.label, payload: try await slept)
            try dispatcher.dispatch(.label, payload: await other ?? "none")
        }

        await test.clock.advance(by: .milliseconds(500))  // NB: one child sleeps on the clock: settled
        #expect(test.clock.pendingCount == 1)

        await withKnownIssue {
            await test.clock.advance(by: .milliseconds(500), timeout: .milliseconds(50))
        } matching: { issue in
            "\(issue)".contains("1 task(s) neither ended nor slept on the test clock in time")
        }
        try await test.receive(.label) { $0.modify(CounterStore.self) { $0.label = "slept" } }
        answer.yield("answered")
        _ = try await task.value
        try await test.receive(.label) { $0.modify(CounterStore.self) { $0.label = "answered" } }
        await test.finish()
    }

    /// What keeps the clock from failing the advance above at once: to everything Swift lets it see, a child
    /// that has ended before its parent awaits it looks like one that waits elsewhere (each ran, and did not
    /// sleep on the clock). Here the advance must settle: every task has ended or sleeps, or awaits a child.
    @Test func aChildThatEndedBeforeItsParentAwaitsItSettlesWhileItsSiblingSleeps() async throws {
        let test = try makeTest()
        let clock = test.clock
        let ended = OneShot()
        test.dispatcher.dispatchTask(id: "two children") { dispatcher in
            async let slept = respond("slept", after: .seconds(1), on: clock)
            async let quick = ended.note("quick")
            try dispatcher.dispatch(.label, payload: try await slept + " " + (await quick))
        }
        await ended.wait()

        await test.clock.advance(by: .milliseconds(500))
        #expect(test.clock.pendingCount == 1)
        await test.clock.advance(by: .milliseconds(500))

        try await test.receive(.label) { $0.modify(CounterStore.self) { $0.label = "slept quick" } }
        await test.finish()
    }

    @Test func runStopsAtTheResponseOnceItsRaceCancelledTheTimeout() async throws {
        let test = try makeTest()
        startTaskGroupRace(on: test)

        await test.clock.run()

        #expect(try label(of: test) == "loaded")
        #expect(test.clock.now == TestClock.Instant(offset: .milliseconds(100)))
        try await test.receive(.label) { $0.modify(CounterStore.self) { $0.label = "loaded" } }
        await test.finish()
    }
}
