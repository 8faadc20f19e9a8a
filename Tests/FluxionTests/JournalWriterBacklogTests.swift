import Foundation
import Testing

@testable import Fluxion

/// The buffers a journal's writer and its dispatching thread pass back and forth.
@Suite(.timeLimit(.minutes(10))) struct JournalWriterBacklogTests {
    private func resume(_ sequence: Int) -> JournalWriter.Backlog.Item {
        .resume(after: sequence, states: [], time: Date())
    }

    /// Hands `count` items over and lets the writer take them and go to sleep; returns how many it took, and
    /// the room of the buffer they grew.
    private func burst(of count: Int, through backlog: JournalWriter.Backlog) -> (taken: Int, room: Int) {
        for sequence in 0..<count { _ = backlog.add(resume(sequence)) }
        var taken = backlog.takeSpare()
        #expect(backlog.take(into: &taken))
        let result = (taken.count, taken.capacity)
        taken.removeAll(keepingCapacity: true)
        #expect(!backlog.take(into: &taken), "nothing more: the writer sleeps")
        return result
    }

    @Test func theWriterKeepsTheBufferItEmptiedWhileItSleeps() {
        let backlog = JournalWriter.Backlog(lock: Lock())

        let (taken, room) = burst(of: 1_000, through: backlog)

        #expect(taken == 1_000)
        // NB: the buffer the burst grew comes back at the next wake, and the next burst fills the other one.
        #expect(backlog.takeSpare().capacity == room, "a burst's room is kept, so no buffer grows into fresh pages")
    }

    @Test func theWriterDoesNotKeepABufferABiggerBurstGrew() {
        let backlog = JournalWriter.Backlog(lock: Lock())
        let count = 2 * JournalWriter.keptBacklogBytes / MemoryLayout<JournalWriter.Backlog.Item>.stride

        let (taken, room) = burst(of: count, through: backlog)

        #expect(taken == count)
        #expect(backlog.takeSpare().capacity < room)
    }

    @Test func aJournalFileStillHasEveryStepAfterBurstsAndPauses() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = Dispatcher()
        try dispatcher.register(MiddlewareSumStore.self)
        let journal = try Journal(recording: dispatcher, writingTo: url)

        for _ in 0..<3 {
            for _ in 0..<700 { try dispatcher.dispatch(.both, payload: 1) }
            journal.flush()
        }
        journal.stop()

        let records = try Journal.records(contentsOf: url)
        #expect(records.map(\.sequence) == Array(1...2_100))
        #expect(records.last?.changes.first?.diff == ["state: 2099 → 2100"])
    }
}
