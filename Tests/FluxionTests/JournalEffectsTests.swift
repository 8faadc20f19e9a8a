import Foundation
import Testing

@testable import Fluxion

/// Effects in the journal: each step's cause, its effects' lifetimes, replay without live effects.
@Suite(.timeLimit(.minutes(10))) struct JournalEffectsTests {
    /// Records a search for "mil" answered with ["milk"]: step 1 starts the effect, step 2 is its dispatch.
    private func recordSearch(to url: URL? = nil) async throws -> (Dispatcher, Journal) {
        let service = SearchService()
        let (dispatcher, _, _) = try makeSearchDispatcher(service: service)
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.findProducts, payload: "mil")
        await service.respond(to: "mil", with: ["milk"])
        await dispatcher.waitUntilDrained()
        return (dispatcher, journal)
    }

    @Test func eachStepSaysWhatCausedIt() async throws {
        let (_, journal) = try await recordSearch()

        let records = journal.records
        #expect(
            records.map(\.name) == [
                ActionName<String>.findProducts.rawValue, ActionName<[String]>.productsFound.rawValue,
            ])
        #expect(records.map(\.cause) == [.outside, .effect("search", step: 1)])
        #expect(records[1].description.split(separator: "\n").first?.hasSuffix("  ← effect search of #1") == true)
    }

    @Test func aStepQueuedByAHandlerNamesThatStep() throws {
        let dispatcher = try makeRelayDispatcher()
        let journal = try Journal(recording: dispatcher)

        try dispatcher.dispatch(.relayStart, payload: 1)

        #expect(journal.records.map(\.cause) == [.outside, .queued(byStep: 1)])
    }

    @Test func anEffectOfAnotherDispatcherIsNoEffectOfThisOne() async throws {
        let recorded = try makeRelayDispatcher()
        let journal = try Journal(recording: recorded)
        try recorded.dispatch(.relayEnd, payload: 1)  // its step 1 has serial 1, as the other's first step
        let other = try makeRelayDispatcher()
        let done = Guarded<Task<Void, any Error>?>(nil)
        other.addMiddleware(
            ClosureMiddleware { action, next in
                // NB: asked for while the action runs: an effect of the other's step 1.
                let task = other.dispatchTask { _ in try recorded.dispatch(.relayEnd, payload: 2) }
                done.withLock { $0 = task }
                return try next(action)
            })

        try other.dispatch(.relayEnd, payload: 1)
        try await done.withLock { $0 }?.value

        #expect(journal.records.count == 2)
        #expect(journal.records.map(\.cause) == [.outside, .outside], "the other's effect is no effect of a step here")
    }

    @Test func aTaskAnEffectStartedIsThatEffectEvenAfterTheEffectEnded() async throws {
        let dispatcher = try makeRelayDispatcher()
        let journal = try Journal(recording: dispatcher)
        let (go, release) = AsyncStream.makeStream(of: Void.self)
        let tasks = Guarded<(effect: Task<Void, any Error>?, child: Task<Void, any Error>?)>((nil, nil))
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                guard action.name == ActionName<Int>.relayEnd.rawValue, tasks.withLock({ $0.effect == nil }) else {
                    return try next(action)
                }
                let effect = dispatcher.dispatchTask { dispatcher in
                    // NB: a plain task inherits the effect's task-local value, and outlives it.
                    let child = Task {
                        for await _ in go { break }
                        try dispatcher.dispatch(.relayEnd, payload: 2)
                    }
                    tasks.withLock { $0.child = child }
                }
                tasks.withLock { $0.effect = effect }
                return try next(action)
            })

        try dispatcher.dispatch(.relayEnd, payload: 1)
        try await tasks.withLock { $0.effect }?.value
        await dispatcher.waitUntilDrained()  // no task of the dispatcher is live: the effect ended
        release.yield()
        try await tasks.withLock { $0.child }?.value

        #expect(journal.records.map(\.cause) == [.outside, .effect("#1", step: 1)])
    }

    @Test func aStepListsItsEffectsAndHowTheyEnded() async throws {
        let (_, journal) = try await recordSearch()

        let effects = journal.records[0].effects
        #expect(effects.map(\.name) == ["search"])
        #expect(effects.first?.outcome == .finished)
        #expect(effects.first?.ended != nil)
        #expect(journal.records[0].description.contains("⇢ effect search: finished"))
    }

    @Test func anEffectIsDatedBetweenTheStepThatStartedItAndItsEnd() async throws {
        let before = Date()
        let (_, journal) = try await recordSearch()
        let after = Date()

        let records = journal.records
        let effect = try #require(records[0].effects.first)
        let ended = try #require(effect.ended)
        #expect(before <= records[0].time && records[0].time <= effect.started)
        #expect(effect.started <= records[1].time && records[1].time <= ended, "its dispatch is a step of its own")
        #expect(ended <= after)
    }

    @Test func aJournalFileKeepsCausesAndEffects() async throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let (_, journal) = try await recordSearch(to: url)
        journal.stop()

        let records = try Journal.records(contentsOf: url)
        #expect(records.map(\.cause) == [.outside, .effect("search", step: 1)])
        #expect(records[0].effects.map(\.outcome) == [.finished])
    }

    @Test(arguments: [true, false])
    func aReplayStartsNoEffectAndDispatchesWhatTheEffectsDispatched(fromFile: Bool) async throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let (_, journal) = try await recordSearch(to: url)
        journal.stop()
        let offline = SearchService()  // never answers: a live request would hang the replay
        let (replayed, search, errors) = try makeSearchDispatcher(service: offline)

        let report = try fromFile ? Journal.replay(contentsOf: url, into: replayed) : journal.replay(into: replayed)

        #expect(report.allMatched)
        #expect(report.replayed == 2)
        #expect(report.unfinishedEffects.isEmpty)
        #expect(replayed.runningTaskCount == 0)
        #expect(offline.requests.values.isEmpty)
        #expect(search.state == Catalog(query: "mil", results: ["milk"], isLoading: false))
        #expect(errors.values.isEmpty)
    }

    @Test func aReplayOfAJournalCutShortListsTheEffectsThatNeverEnded() async throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let service = SearchService()
        let (dispatcher, _, _) = try makeSearchDispatcher(service: service)
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.findProducts, payload: "mil")
        journal.flush()  // NB: the app stopped here, the search still running
        let (replayed, _, _) = try makeSearchDispatcher(service: SearchService())

        let report = try Journal.replay(contentsOf: url, into: replayed)

        #expect(report.unfinishedEffects == ["#1 search"])
        #expect(report.description.contains("Effects with no recorded end"))
        #expect(replayed.runningTaskCount == 0)
        await service.respond(to: "mil", with: [])
        await dispatcher.waitUntilDrained()
    }
}

/// Time travel holds tasks' dispatches: nothing is lost, nothing of the past is saved.
@Suite(.timeLimit(.minutes(10))) struct JournalHoldingTests {
    /// Steps: 1 shelves Dune, 2 starts a search for "mil" (still running).
    private func makeTravellingSession() throws -> (Dispatcher, Journal, SearchService, Recorder<TaskError>) {
        let service = SearchService()
        let (dispatcher, _, errors) = try makeSearchDispatcher(service: service)
        try dispatcher.register(ShelfStore.self)
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.findProducts, payload: "mil")
        try journal.stepBack()
        return (dispatcher, journal, service, errors)
    }

    @Test func aTaskThatDispatchesWhileThePastIsShownIsHeldThenDeliveredAtThePresent() async throws {
        let (dispatcher, journal, service, errors) = try makeTravellingSession()
        let search = try dispatcher.store(ProductSearchStore.self)

        await service.respond(to: "mil", with: ["milk"])
        await dispatcher.waitUntilDrained()  // NB: the task's dispatch returned: it is held

        #expect(search.state == Catalog())  // the past
        #expect(journal.isTravelling)
        try journal.returnToPresent()
        #expect(search.state == Catalog(query: "mil", results: ["milk"], isLoading: false))
        #expect(journal.records.last?.cause == .effect("search", step: 2))
        #expect(errors.values.isEmpty)
    }

    @Test func resumeDropsTheHeldDispatchesAndReportsEach() async throws {
        let (dispatcher, journal, service, errors) = try makeTravellingSession()
        let search = try dispatcher.store(ProductSearchStore.self)
        await service.respond(to: "mil", with: ["milk"])
        await dispatcher.waitUntilDrained()

        journal.resumeDiscardingLaterSteps()

        #expect(search.state == Catalog())
        let error = try #require(errors.values.first)
        #expect(error.kind == .dropped)
        #expect(error.hasTaskID("search"))
        #expect(error.action == ActionName<[String]>.productsFound.rawValue)
        #expect(error.error as? JournalError == .heldDispatchDropped(action: error.action ?? "", step: 1))
        try dispatcher.dispatch(.shelve, payload: "Emma")  // the present again: nothing is held
        #expect(dispatcher.runningTaskCount == 0)
    }

    @Test func aBatchFromATaskWhileThePastIsShownIsRefusedAndReported() async throws {
        let dispatcher = try makeShelfDispatcher()
        let errors = Recorder<TaskError>()
        dispatcher.onTaskError = { errors.append($0) }
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try journal.stepBack()

        let task = dispatcher.dispatchTask(id: "import") { dispatcher in
            try dispatcher.batch { try $0.dispatch(.shelve, payload: "Emma") }
        }

        await #expect(throws: JournalError.travelling(action: ActionName<String>.shelve.rawValue, step: 0)) {
            try await task.value
        }
        #expect(errors.values.map(\.kind) == [.refused, .threw])
    }
}
