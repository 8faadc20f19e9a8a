import Fluxion
import Foundation
import Testing

/// The effect of a step `resumeDiscardingLaterSteps()` dropped ends in the file, marked, after the resume.
@Suite(.timeLimit(.minutes(10))) struct JournalDroppedEffectTests {
    /// Records a search for "mil" whose effect still runs (it waits for the service), then drops its step.
    private func recordDroppedSearch(to url: URL) throws -> (Dispatcher, Journal, SearchService) {
        let service = SearchService()
        let (dispatcher, _, _) = try makeSearchDispatcher(service: service)
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.findProducts, payload: "mil")  // #1, whose effect waits for "mil"
        try journal.stepBack()
        journal.resumeDiscardingLaterSteps()
        return (dispatcher, journal, service)
    }

    @Test func anEffectOfADroppedStepEndsInTheFile() async throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let (dispatcher, journal, service) = try recordDroppedSearch(to: url)

        await service.respond(to: "mil", with: ["milk"])  // the effect dispatches (a new #1), then ends
        await dispatcher.waitUntilDrained()
        journal.flush()

        let (replayed, _, _) = try makeSearchDispatcher(service: SearchService())
        let report = try Journal.replay(contentsOf: url, into: replayed)
        #expect(report.unfinishedEffects.isEmpty, "\(report)")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(
            text.contains(
                #"{"effect":{"dropped":true,"event":"finished","index":0,"name":"search"},"kind":"effect","sequence":1"#
            ))
        let records = try Journal.records(contentsOf: url)
        #expect(records.map(\.name) == ["effects.findProducts", "Fluxion.travel", "effects.productsFound"])
        #expect(records[0].effects.map(\.outcome) == [.finished])  // the dropped step's
        #expect(records[2].effects.isEmpty)
    }

    @Test func theEndOfADroppedStepsEffectIsNotTakenForThatOfALaterStepOfItsNumber() async throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let (dispatcher, journal, service) = try recordDroppedSearch(to: url)
        try dispatcher.register(LookupStore.self) { LookupStore(service: service) }
        let (ends, ended) = AsyncStream.makeStream(of: Void.self)
        dispatcher.observeTaskEnds { ended.yield() }  // told after the journal noted the end
        try dispatcher.dispatch(.lookUp, payload: "tea")  // a new #1, whose effect waits for "tea"

        await service.respond(to: "mil", with: ["milk"])  // the dropped #1's effect dispatches (#2), and ends
        for await _ in ends { break }
        journal.flush()

        let (replayed, _, _) = try makeSearchDispatcher(service: SearchService())
        try replayed.register(LookupStore.self) { LookupStore(service: SearchService()) }
        let report = try Journal.replay(contentsOf: url, into: replayed)
        #expect(report.unfinishedEffects == ["#1 lookup"], "\(report)")  // the new #1's, which runs on
        let records = try Journal.records(contentsOf: url)
        #expect(
            records.map(\.action) == [
                "effects.findProducts(mil)", "resumed from step 0", "effects.lookUp(tea)",
                "effects.productsFound([\"milk\"])",
            ])
        #expect(records[0].effects.map(\.outcome) == [.finished])
        #expect(records[2].effects.map(\.outcome) == [nil])
        await service.respond(to: "tea", with: [])
        await dispatcher.waitUntilDrained()
    }

    @Test func theEndOfAnEffectOfTheStepAResumeWentBackToIsGivenToThatStep() async throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let service = SearchService()
        let (dispatcher, _, _) = try makeSearchDispatcher(service: service)
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.findProducts, payload: "mil")  // #1, whose effect waits for "mil"
        try dispatcher.dispatch(.productsFound, payload: [])  // #2
        try journal.stepBack()
        journal.resumeDiscardingLaterSteps()  // the file's resume line has the number 1 too

        await service.respond(to: "mil", with: ["milk"])
        await dispatcher.waitUntilDrained()
        journal.flush()

        let records = try Journal.records(contentsOf: url)
        #expect(records.map(\.sequence) == [1, 2, 1, 2])
        #expect(records[0].effects.map(\.outcome) == [.finished])
        #expect(journal.records[0].effects.map(\.outcome) == [.finished])
    }
}
