import Fluxion
import Foundation
import Testing

/// A file recorded across travels and resumes replays to the states where the session ended.
@Suite struct JournalResumeTests {
    private func makeDispatcher() throws -> Dispatcher {
        let dispatcher = try makeShelfDispatcher()
        try dispatcher.register(LampStore.self)
        return dispatcher
    }

    /// The states of the stores, as JSON, to compare a replay with the live session.
    private func states(of dispatcher: Dispatcher) throws -> [String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return [
            String(decoding: try encoder.encode(dispatcher.store(ShelfStore.self).state), as: UTF8.self),
            String(decoding: try encoder.encode(dispatcher.store(TallyReadingStore.self).state), as: UTF8.self),
            String(decoding: try encoder.encode(dispatcher.store(LampStore.self).state), as: UTF8.self),
        ]
    }

    @Test func aResumeRecordsAStoreWhoseOnlyChangeWasInADroppedStep() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.toggleLamp)  // the lamp's only change, dropped by the resume
        try journal.travel(to: 1)
        journal.resumeDiscardingLaterSteps()
        try dispatcher.dispatch(.toggleLamp)
        journal.stop()

        let fresh = try makeDispatcher()
        let report = try Journal.replay(contentsOf: url, into: fresh)

        #expect(report.allMatched, "\(report)")
        #expect(try fresh.store(LampStore.self).state.isOn)
        #expect(try states(of: fresh) == states(of: dispatcher))
        let resumed = try #require(Journal.records(contentsOf: url).first { $0.name == AnyAction.travelName })
        #expect(resumed.changes.map(\.store).contains("LampStore"))
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func aFileRecordedAcrossManyTravelsAndResumesReplaysToWhereTheSessionEnded(seed: UInt64) throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher, capacity: 12, writingTo: url)
        var random = SplitMix64(state: seed)

        for round in 0..<120 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1:
                let steps = journal.steps
                try journal.travel(to: Int.random(in: steps, using: &random))
            case 2:
                journal.resumeDiscardingLaterSteps()
            case 3:
                try journal.returnToPresent()
            default:
                if journal.isTravelling { journal.resumeDiscardingLaterSteps() }
                switch Int.random(in: 0..<3, using: &random) {
                case 0: try dispatcher.dispatch(.shelve, payload: "book \(round)")
                case 1: try dispatcher.dispatch(.toggleLamp)
                default: try dispatcher.dispatch(.signIn, payload: Owner(name: "reader \(round)", password: "pw"))
                }
            }
        }
        if journal.isTravelling { journal.resumeDiscardingLaterSteps() }
        journal.stop()

        let fresh = try makeDispatcher()
        let report = try Journal.replay(contentsOf: url, into: fresh)

        #expect(report.allMatched, "seed \(seed): \(report)")
        #expect(report.differingStores.isEmpty, "seed \(seed)")
        #expect(try states(of: fresh) == states(of: dispatcher), "seed \(seed)")
    }
}
