import Fluxion
import FluxionTesting
import Foundation
import Testing

// "Working with Effects": the journal, replay and time travel with effects.
extension EffectsGuideTests {
    @Test func theJournalShowsEachStepsCauseAndItsEffects() async throws {
        let url = temporaryURL("effects-history")
        defer { try? FileManager.default.removeItem(at: url) }
        let (test, journal) = try makeRecordedSearch(writingTo: url)
        try await typeMilk(into: test)
        await test.finish()
        journal.stop()

        let history = journal.records.map(\.description).joined(separator: "\n")
        let article = try ArticleCode.article("WorkingWithEffects")
        #expect(article.contains("```\n\(history)\n```"), "\(history)")
        #expect(article.contains("`← queued by #3`"))
        #expect(JournalRecord.Cause.queued(byStep: 3).description == "queued by #3")
        #expect(journal.records.map(\.cause) == [.outside, .outside, .effect("search", step: 2)])

        // `todo history` prints the records of the file: the same lines.
        #expect(try Journal.records(contentsOf: url).map(\.description) == journal.records.map(\.description))
        let file = try String(contentsOf: url, encoding: .utf8)
        #expect(file.contains(#""cause":{"effect":"search","step":2}"#))
        #expect(article.contains(#"`"cause":{"effect":"search","step":2}`"#))
        let started = #"{"effect":{"event":"started","index":0,"name":"search"},"kind":"effect","sequence":1"#
        let cancelled = #"{"effect":{"event":"cancelled","index":0,"name":"search"},"kind":"effect","sequence":1"#
        #expect(file.contains(started))
        #expect(file.contains(cancelled))
    }

    @Test func aReplayRunsNoEffectAndDispatchesWhatTheEffectsDispatched() async throws {
        let sessionURL = temporaryURL("effects-replay")
        defer { try? FileManager.default.removeItem(at: sessionURL) }
        let (test, journal) = try makeRecordedSearch(writingTo: sessionURL)
        try await typeMilk(into: test)
        await test.finish()
        journal.stop()

        // article-replay-begin
        let fresh = Dispatcher()
        try fresh.register(SearchStore.self) { SearchStore(client: SearchClient { _ in throw SearchError.offline }) }
        let report = try Journal.replay(contentsOf: sessionURL, into: fresh)
        print(report.allMatched, report.unfinishedEffects)  // true []: no request was made
        // article-replay-end

        #expect(report.allMatched)
        #expect(report.replayed == 3)
        #expect(report.unfinishedEffects.isEmpty)
        #expect(fresh.runningTaskCount == 0)
        #expect(try fresh.store(SearchStore.self).state == Search(query: "mil", results: ["milk", "mild"]))
    }

    @Test func aReplayOfAJournalCutShortListsTheEffectsThatNeverEnded() async throws {
        let url = temporaryURL("effects-cut")
        defer { try? FileManager.default.removeItem(at: url) }
        let (test, journal) = try makeRecordedSearch(exhaustivity: .off, writingTo: url)
        try test.dispatcher.dispatch(.search, payload: "mil")  // its effect sleeps: the app stops here
        journal.flush()

        let fresh = Dispatcher()
        try fresh.register(SearchStore.self) { SearchStore(client: catalogClient) }
        let report = try Journal.replay(contentsOf: url, into: fresh)

        #expect(report.unfinishedEffects == ["#1 search"])
        #expect(fresh.runningTaskCount == 0)
        test.dispatcher.cancelAllTasks()
        await test.finish()
        journal.stop()
    }

    // MARK: Time travel

    /// Searches for "mil", steps back, and lets the search answer: its dispatch is held.
    private func answerInThePast() async throws -> (TestDispatcher, Journal, SearchStore) {
        let (test, journal) = try makeRecordedSearch(exhaustivity: .off)
        let search = try test.dispatcher.store(SearchStore.self)
        try test.dispatcher.dispatch(.search, payload: "mil")
        try journal.stepBack()
        await test.clock.advance(by: .milliseconds(300))
        #expect(search.state == Search(), "the past, still")
        return (test, journal, search)
    }

    @Test func returnToPresentDeliversTheHeldDispatchesInOrder() async throws {
        let (test, journal) = try makeRecordedSearch(exhaustivity: .off)
        let search = try test.dispatcher.store(SearchStore.self)
        try test.dispatcher.dispatch(.search, payload: "mil")
        try journal.stepBack()
        let retyped = test.dispatcher.dispatchTask { try $0.dispatch(.search, payload: "milk") }
        try await retyped.value  // held: it returned as a queued dispatch does
        await test.clock.advance(by: .milliseconds(300))  // the search for "mil" answers: held behind it
        #expect(search.state == Search())

        try journal.returnToPresent()

        #expect(journal.records.map(\.name) == ["search", "search", "searchFinished"])
        #expect(journal.records.map(\.cause) == [.outside, .outside, .effect("search", step: 1)])
        #expect(search.state == Search(query: "milk", results: ["milk", "mild"]))
        test.dispatcher.cancelAllTasks()
        await test.finish()
    }

    @Test func aStepForwardToTheLastStepDeliversTheHeldDispatches() async throws {
        let (test, journal, search) = try await answerInThePast()

        try journal.stepForward()

        #expect(!journal.isTravelling)
        #expect(search.state == Search(query: "mil", results: ["milk", "mild"]))
        await test.finish()
    }

    @Test func resumeDropsTheHeldDispatchesAndReportsEach() async throws {
        let (test, journal, search) = try await answerInThePast()

        journal.resumeDiscardingLaterSteps()

        #expect(search.state == Search())
        try await test.receiveTaskError(id: "search", kind: .dropped) { error in
            #expect(error.action == "searchFinished")
            #expect(error.error as? JournalError == .heldDispatchDropped(action: "searchFinished", step: 0))
        }
        await test.finish()
    }

    @Test func stoppingInThePastDropsTheHeldDispatchesAndReportsEach() async throws {
        let (test, journal, search) = try await answerInThePast()

        journal.stop()

        #expect(search.state == Search())
        try await test.receiveTaskError(id: "search", kind: .dropped)
        await test.finish()
    }

    @Test func aBatchFromATaskInThePastIsRefusedAndReported() async throws {
        let (test, journal) = try makeRecordedSearch(exhaustivity: .off)
        try test.dispatcher.dispatch(.search, payload: "mil")
        try journal.stepBack()
        test.dispatcher.cancelAllTasks()

        let task = test.dispatcher.dispatchTask(id: "restore") { dispatcher in
            try dispatcher.batch { batch in try batch.dispatch(.search, payload: "milk") }
        }

        await #expect(throws: JournalError.travelling(action: "search", step: 0)) { try await task.value }
        try await test.receiveTaskError(id: "restore", kind: .refused) { error in
            #expect(error.error as? JournalError == .travelling(action: "search", step: 0))
        }
        try await test.receiveTaskError(id: "restore", kind: .threw)
        await test.finish()
    }
}
