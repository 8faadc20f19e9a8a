import Fluxion
import Foundation
import Testing

/// A replay replays the journal alone: what replayed steps queue, and tasks started meanwhile, do not run.
@Suite(.timeLimit(.minutes(10))) struct JournalReplayFollowUpTests {
    /// A relay dispatcher whose observer dispatches `relayEnd(50)` once the relay holds two values.
    private func makeObservedRelay() throws -> (Dispatcher, ObservationToken) {
        let dispatcher = try makeRelayDispatcher()
        let token = try dispatcher.store(RelayStore.self).observe { [weak dispatcher] change in
            if change.newState.count == 2 { try? dispatcher?.dispatch(.relayEnd, payload: 50) }
        }
        return (dispatcher, token)
    }

    @Test(arguments: [true, false])
    func aReplayRunsWhatAHandlerOrObserverQueuedOnceFromItsOwnLine(fromFile: Bool) throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let (recorded, recordedToken) = try makeObservedRelay()
        let journal = try Journal(recording: recorded, writingTo: url)
        try recorded.dispatch(.relayStart, payload: 1)  // its handler queues relayEnd(2), its observer relayEnd(50)
        journal.stop()
        #expect(
            journal.records.map(\.action) == ["effects.relayStart(1)", "effects.relayEnd(2)", "effects.relayEnd(50)"])
        let (replayed, replayedToken) = try makeObservedRelay()

        let report = try fromFile ? Journal.replay(contentsOf: url, into: replayed) : journal.replay(into: replayed)

        #expect(report.allMatched, "\(report)")
        #expect(report.replayed == 3)
        #expect(report.followUpsNotRun == 2)
        #expect(report.description.hasPrefix("Replayed 3 step(s), set 0 from recorded states, 2 queued action(s)"))
        #expect(try replayed.store(RelayStore.self).state == [1, 2, 50])
        #expect(try recorded.store(RelayStore.self).state == [1, 2, 50])
        recordedToken.cancel()
        replayedToken.cancel()
    }

    @Test func aTaskAStoreFactoryStartsDuringAReplayDoesNotStart() async throws {
        let recorded = try makeRelayDispatcher()
        let journal = try Journal(recording: recorded)
        try recorded.dispatch(.relayEnd, payload: 7)
        journal.stop()
        let ran = LockedBox(false)
        let task = LockedBox<Task<Void, any Error>?>(nil)
        let replayed = Dispatcher()
        try replayed.register(RelayStore.self) { [weak replayed] in
            task.value = replayed?.dispatchTask { _ in ran.value = true }  // a poll, say
            return RelayStore()
        }

        let report = try journal.replay(into: replayed)

        #expect(report.allMatched, "\(report)")
        #expect(report.tasksNotStarted == 1)
        #expect(report.description.contains(", 1 task(s) not started."))
        #expect(replayed.runningTaskCount == 0)
        let started = try #require(task.value)
        await #expect(throws: CancellationError.self) { try await started.value }
        #expect(!ran.value)
        #expect(try replayed.store(RelayStore.self).state == [7])
    }

    @Test func afterAReplayTheDispatcherRunsQueuedActionsAndStartsTasksAgain() async throws {
        let recorded = try makeRelayDispatcher()
        let journal = try Journal(recording: recorded)
        try recorded.dispatch(.relayStart, payload: 1)
        journal.stop()
        let replayed = try makeRelayDispatcher()
        _ = try journal.replay(into: replayed)

        try replayed.dispatch(.relayStart, payload: 10)
        try await replayed.dispatchTask { dispatcher in try dispatcher.dispatch(.relayEnd, payload: 20) }.value

        #expect(try replayed.store(RelayStore.self).state == [1, 2, 10, 11, 20])
    }
}
