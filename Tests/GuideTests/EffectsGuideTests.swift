import Fluxion
import FluxionTesting
import Foundation
import Testing

/// A response the search client cannot read: not a ``SearchError``, so the search's effect throws it.
struct MalformedResponse: Error, Equatable {}

/// Why ``QueryPolicyStore`` refused a query.
struct RefusedQuery: Error, Equatable {}

/// Refuses the query "refused": the `search` action then rolls back in every store.
final class QueryPolicyStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: Handlers {
        HandlerTable().on(.search) { checked, action in
            guard action.payload != "refused" else { throw RefusedQuery() }
            checked += 1
        }
    }
}

/// Asks for two effects without an id; the journal names them `#1` and `#2`.
final class TwoEffectsStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: Handlers {
        HandlerTable().on(.showToast, with: .effects) { count, _, effects in
            count += 1
            effects.run { _ in }
            effects.run(priority: .low) { _ in }
        }
    }
}

/// Starts a task with `dispatchTask` before passing each action on, and notes how many tasks ran then;
/// and one more after, once the action committed.
struct TaskStartingMiddleware: Middleware {
    let started: Recorder<Task<Void, any Error>>
    let runningBeforeCommit: Recorder<Int>
    let ran: Recorder<String>

    func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
        let (name, ran) = (action.name, ran)
        started.append(next.dispatcher.dispatchTask { _ in ran.append(name) })
        runningBeforeCommit.append(next.dispatcher.runningTaskCount)
        let changes = try next(action)
        started.append(next.dispatcher.dispatchTask { _ in ran.append("after \(name)") })
        return changes
    }
}

/// Records what an app would log.
final class GuideLogger: Sendable {
    let messages = Recorder<String>()

    func error(_ message: String) { messages.append(message) }
}

/// A search client that answers from a fixed catalog at once.
let catalogClient = SearchClient { query in ["milk", "mild", "mint"].filter { $0.hasPrefix(query) } }

/// A journal file's URL in the temporary directory.
func temporaryURL(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID()).jsonl")
}

/// The code of "Working with Effects", run: the search as you type, its journal, its replay, and time travel.
@Suite(.timeLimit(.minutes(10))) struct EffectsGuideTests {
    /// A test dispatcher with the search store on its clock, and a journal of it.
    func makeRecordedSearch(
        client: SearchClient = catalogClient,
        exhaustivity: TestDispatcher.Exhaustivity = .on,
        writingTo url: URL? = nil
    ) throws -> (TestDispatcher, Journal) {
        let test = TestDispatcher(exhaustivity: exhaustivity)
        try test.register(SearchStore.self) { SearchStore(client: client, clock: test.clock) }
        return (test, try Journal(recording: test.dispatcher, writingTo: url))
    }

    /// Types "mi", then "mil" 200 ms later; the search for "mil" answers.
    func typeMilk(into test: TestDispatcher) async throws {
        try test.dispatch(.search, payload: "mi") {
            $0.modify(SearchStore.self) {
                $0.query = "mi"
                $0.isLoading = true
            }
        }
        await test.clock.advance(by: .milliseconds(200))
        try test.dispatch(.search, payload: "mil") { $0.modify(SearchStore.self) { $0.query = "mil" } }
        await test.clock.advance(by: .milliseconds(300))
        try await test.receive(.searchFinished, payload: ["milk", "mild"]) {
            $0.modify(SearchStore.self) {
                $0.results = ["milk", "mild"]
                $0.isLoading = false
            }
        }
    }

    // MARK: When an effect starts

    @Test func anEffectStartsWhenItsActionCommitsBeforeDispatchReturns() async throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(SearchStore.self) { SearchStore(client: catalogClient, clock: TestClock()) }
        let journal = try Journal(recording: dispatcher)

        try dispatcher.dispatch(.search, payload: "mil")
        #expect(dispatcher.runningTaskCount == 1)

        try dispatcher.batch { batch in
            try batch.dispatch(.search, payload: "milk")
            #expect(dispatcher.runningTaskCount == 1, "not before the batch commits")
            #expect(journal.records.count == 1)
        }
        #expect(journal.records.map { $0.effects.map(\.name) } == [["search"], ["search"]])
        #expect(journal.records.map(\.name) == ["search", AnyAction.batchName])
        dispatcher.cancelAllTasks()
        await dispatcher.waitUntilDrained()
        journal.stop()
    }

    @Test func effectsStartInTheOrderAskedFor() async throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TwoEffectsStore.self)
        let journal = try Journal(recording: dispatcher)

        try dispatcher.dispatch(.showToast, payload: "Saved")
        await dispatcher.waitUntilDrained()

        let effects = try #require(journal.records.first).effects
        #expect(effects.map(\.name) == ["#1", "#2"])
        #expect(effects.map(\.outcome) == [.finished, .finished])
    }

    @Test func anActionThatRollsBackStartsNothingAndCancelsNothing() async throws {
        let test = TestDispatcher()
        try test.register(SearchStore.self) {
            SearchStore(client: SearchClient { _ in ["milk"] }, clock: test.clock)
        }
        try test.register(QueryPolicyStore.self)
        try test.dispatch(.search, payload: "mil") {
            $0.modify(SearchStore.self) {
                $0.query = "mil"
                $0.isLoading = true
            }
            $0.modify(QueryPolicyStore.self) { $0 = 1 }
        }

        #expect(throws: RefusedQuery()) { try test.dispatch(.search, payload: "refused") }
        #expect(throws: RefusedQuery()) {
            try test.dispatcher.batch { batch in
                try batch.dispatch(.search, payload: "milk")
                try batch.dispatch(.search, payload: "refused")
            }
        }
        #expect(test.dispatcher.runningTaskCount == 1)

        await test.clock.advance(by: .milliseconds(300))  // the search for "mil" was not cancelled
        try await test.receive(.searchFinished, payload: ["milk"]) {
            $0.modify(SearchStore.self) {
                $0.results = ["milk"]
                $0.isLoading = false
            }
        }
        await test.finish()
    }

    @Test func dispatchTaskWhileAnActionRunsWaitsForItsCommitAndNeverRunsOnRollback() async throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(QueryPolicyStore.self)
        let (started, running, ran) = (Recorder<Task<Void, any Error>>(), Recorder<Int>(), Recorder<String>())
        dispatcher.addMiddleware(TaskStartingMiddleware(started: started, runningBeforeCommit: running, ran: ran))

        try dispatcher.dispatch(.search, payload: "mil")
        for task in started.values { try await task.value }
        #expect(running.values == [0], "returned at once, started at the commit")
        #expect(Set(ran.values) == ["search", "after search"])

        #expect(throws: RefusedQuery()) { try dispatcher.dispatch(.search, payload: "refused") }
        await #expect(throws: CancellationError.self) { try await #require(started.values.last).value }
        #expect(started.values.count == 3)
        #expect(Set(ran.values) == ["search", "after search"], "the rolled-back action's task never ran its work")
    }

    @Test func dispatchTaskFromAnObserverStartsAfterTheStep() async throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(QueryPolicyStore.self)
        let started = Recorder<Task<Int, any Error>>()
        let runningInObserver = Recorder<Int>()
        let token = try dispatcher.store(QueryPolicyStore.self).observe { change in
            started.append(dispatcher.dispatchTask { _ in change.newState })
            runningInObserver.append(dispatcher.runningTaskCount)
        }

        try dispatcher.dispatch(.search, payload: "mil")

        #expect(runningInObserver.values == [0])
        #expect(try await #require(started.values.first).value == 1)
        token.cancel()
    }

    @Test func dispatchTaskFromOutsideAnyActionStartsAtOnce() async throws {
        let dispatcher = Dispatcher()
        let clock = TestClock()

        let task = dispatcher.dispatchTask { _ in try await clock.sleep(for: .seconds(1)) }

        #expect(dispatcher.runningTaskCount == 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func aToastHidesItselfAndANewerToastReplacesItsTimer() async throws {
        let dispatcher = Dispatcher()
        let clock = TestClock()
        try dispatcher.register(ToastStore.self) { ToastStore(clock: clock) }
        let toast = try dispatcher.store(ToastStore.self)
        let hides = Recorder<String>()
        let token = toast.observe { change in hides.append(change.action.name) }

        try dispatcher.dispatch(.showToast, payload: "Saved")
        await clock.advance(by: .seconds(2))
        try dispatcher.dispatch(.showToast, payload: "Deleted")
        #expect(toast.state.message == "Deleted")
        await clock.advance(by: .seconds(2))
        #expect(toast.state.message == "Deleted", "the first toast's timer was cancelled")
        await clock.advance(by: .seconds(1))
        await dispatcher.waitUntilDrained()

        #expect(toast.state.message == nil)
        #expect(hides.values == ["showToast", "showToast", "hideToast"], "the first toast's timer was cancelled")
        token.cancel()
    }

    // MARK: Cancellation and errors

    @Test func aSearchCancelledOnLogOutChangesNothing() async throws {
        let test = TestDispatcher()
        let clock = test.clock
        try test.register(SearchStore.self) {
            SearchStore(
                client: SearchClient { _ in
                    try await clock.sleep(for: .seconds(1))
                    return ["milk"]
                }, clock: clock)
        }
        let dispatcher = test.dispatcher
        try test.dispatch(.search, payload: "mil") {
            $0.modify(SearchStore.self) {
                $0.query = "mil"
                $0.isLoading = true
            }
        }
        await test.clock.advance(by: .milliseconds(300))  // the request is in flight

        // article-cancel-begin
        dispatcher.cancelTasks(id: "search")  // on log-out: the answer in flight changes nothing
        // article-cancel-end
        await test.clock.advance(by: .seconds(2))

        await test.finish()  // no action, no task error: a cancelled task's CancellationError is how it ends
    }

    @Test func aCancelledTaskThatThrowsAnotherErrorThanCancellationErrorIsReported() async throws {
        let test = TestDispatcher()
        let clock = test.clock
        test.dispatcher.dispatchTask(id: "load") { _ in
            do { try await clock.sleep(for: .seconds(1)) } catch { throw MalformedResponse() }  // its own "cancelled"
        }

        test.dispatcher.cancelTasks(id: "load")

        try await test.receiveTaskError(id: "load", kind: .threw) { error in
            #expect(error.error as? MalformedResponse == MalformedResponse())
        }
        await test.finish()
    }

    @Test func aSearchThatTimesOutReportsItOnSearchFinished() async throws {
        let test = TestDispatcher()
        let clock = test.clock
        try test.register(SearchStore.self) {
            SearchStore(
                client: SearchClient { _ in
                    try await clock.sleep(for: .seconds(60))
                    return []
                }, clock: clock)
        }
        try test.dispatch(.search, payload: "mil") {
            $0.modify(SearchStore.self) {
                $0.query = "mil"
                $0.isLoading = true
            }
        }

        await test.clock.advance(by: .seconds(6))

        try await test.receive(.searchFinished, payload: nil, error: SearchError.timedOut) {
            $0.modify(SearchStore.self) {
                $0.isLoading = false
                $0.failure = .timedOut
            }
        }
        await test.finish()
    }

    @Test func anOfflineSearchIsShownByTheStore() async throws {
        let test = TestDispatcher()
        try test.register(SearchStore.self) {
            SearchStore(client: SearchClient { _ in throw SearchError.offline }, clock: test.clock)
        }
        try test.dispatch(.search, payload: "mil") {
            $0.modify(SearchStore.self) {
                $0.query = "mil"
                $0.isLoading = true
            }
        }

        await test.clock.advance(by: .milliseconds(300))

        try await test.receive(.searchFinished, error: SearchError.offline) {
            $0.modify(SearchStore.self) {
                $0.isLoading = false
                $0.failure = .offline
            }
        }
        await test.finish()
    }

    @Test func aTaskErrorReachesOnTaskError() async throws {
        let test = TestDispatcher(exhaustivity: .off)
        try test.register(SearchStore.self) {
            SearchStore(client: SearchClient { _ in throw MalformedResponse() }, clock: test.clock)
        }
        let (dispatcher, logger) = (test.dispatcher, GuideLogger())
        // article-onTaskError-begin
        dispatcher.onTaskError = { error in
            logger.error("\(error)")  // task "search" (an effect of search) failed: MalformedResponse()
        }
        // article-onTaskError-end

        try dispatcher.dispatch(.search, payload: "mil")
        await test.clock.advance(by: .milliseconds(300))

        #expect(logger.messages.values == [#"task "search" (an effect of search) failed: MalformedResponse()"#])
        await test.finish()
    }

    @Test func theArticleShowsThisCode() throws {
        try ArticleCode.expect(
            article: "WorkingWithEffects",
            holdsTheRegionsOf: [
                "EffectsGuideModel.swift", "EffectsGuideTests.swift", "EffectsGuideTests+Journal.swift",
                "EffectsGuideTestExamples.swift",
            ],
            named: ["search", "cancel", "onTaskError", "replay", "test", "taskError"])
    }
}
