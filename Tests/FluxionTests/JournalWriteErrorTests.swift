import Foundation
import Testing

@testable import Fluxion

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Write calls that fail on command: the next few, or after half of the next one.
private final class FlakyWrites: @unchecked Sendable {  // `failures` and `halfWrites` guarded by `lock`
    private let lock = NSLock()
    private var failures = 0
    private var halfWrites = 0

    /// Makes the next `count` writes fail with `ENOSPC`.
    func failNext(_ count: Int) {
        lock.withLock { failures = count }
    }

    /// Makes the next write write half its bytes, and the write after it fail with `ENOSPC`.
    func writeHalfThenFail() {
        lock.withLock {
            halfWrites = 1
            failures = 1
        }
    }

    var calls: FileSystemCalls {
        let system = FileSystemCalls.system
        return FileSystemCalls(
            write: { [self] descriptor, bytes, count in
                let (half, fails) = lock.withLock { () -> (Bool, Bool) in
                    if halfWrites > 0 {
                        halfWrites -= 1
                        return (true, false)
                    }
                    guard failures > 0 else { return (false, false) }
                    failures -= 1
                    return (false, true)
                }
                if half { return system.write(descriptor, bytes, max(count / 2, 1)) }
                guard !fails else {
                    errno = ENOSPC
                    return -1
                }
                return system.write(descriptor, bytes, count)
            },
            fsync: system.fsync, rename: system.rename)
    }
}

/// Errors writing a journal file reach a hook as they happen; the steps after one are still written.
@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct JournalWriteErrorTests {
    private func makeJournal(_ writes: FlakyWrites, url: URL) throws -> (Dispatcher, Journal) {
        let dispatcher = try makeShelfDispatcher()
        return (dispatcher, try Journal(recording: dispatcher, writingTo: url, calls: writes.calls))
    }

    @Test func aWriteErrorReachesTheHookAsItHappens() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writes = FlakyWrites()
        let (dispatcher, journal) = try makeJournal(writes, url: url)
        let heard = LockedBox<[JournalError]>([])
        journal.onWriteError = { error in heard.withValue { $0.append(error) } }

        try dispatcher.dispatch(.shelve, payload: "Dune")
        journal.flush()
        writes.failNext(1)
        try dispatcher.dispatch(.shelve, payload: "Emma")
        journal.flush()

        let reason = String(cString: strerror(ENOSPC))
        #expect(heard.value == [.writeFailed(path: url.path, step: 2, reason: reason)])
        #expect(journal.fileError == .writeFailed(path: url.path, step: 2, reason: reason))
        journal.stop()
    }

    @Test func theStepsAfterAWriteErrorAreWrittenAndTheFileReplaysToTheEnd() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writes = FlakyWrites()
        let (dispatcher, journal) = try makeJournal(writes, url: url)
        journal.onWriteError = { _ in }

        try dispatcher.dispatch(.shelve, payload: "Dune")
        journal.flush()
        writes.failNext(1)
        try dispatcher.dispatch(.shelve, payload: "Emma")
        try dispatcher.dispatch(.shelve, payload: "Ulysses")
        try dispatcher.dispatch(.signIn, payload: Owner(name: "Ada", password: "pw"))
        journal.stop()

        #expect(try Journal.records(contentsOf: url).map(\.sequence) == [1, 3, 4])
        let fresh = try makeShelfDispatcher()
        let report = try Journal.replay(contentsOf: url, into: fresh)
        #expect(report.allMatched, "\(report)")
        #expect(try fresh.store(ShelfStore.self).state == dispatcher.store(ShelfStore.self).state)
        #expect(try fresh.store(TallyReadingStore.self).state == dispatcher.store(TallyReadingStore.self).state)
    }

    @Test func aLineCutShortByAWriteErrorIsTakenBackOut() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writes = FlakyWrites()
        let (dispatcher, journal) = try makeJournal(writes, url: url)
        let heard = LockedBox(0)
        journal.onWriteError = { _ in heard.withValue { $0 += 1 } }

        try dispatcher.dispatch(.shelve, payload: "Dune")
        journal.flush()
        writes.writeHalfThenFail()
        try dispatcher.dispatch(.shelve, payload: "Emma")
        journal.flush()  // NB: a line of its own: the lines waiting together are written with one write
        try dispatcher.dispatch(.shelve, payload: "Ulysses")
        journal.stop()

        #expect(heard.value == 1)
        let report = try Journal.replay(contentsOf: url, into: makeShelfDispatcher())
        #expect(report.skipped.isEmpty)
        #expect(report.allMatched, "\(report)")
        #expect(try Journal.records(contentsOf: url).map(\.sequence) == [1, 3])
    }

    /// Lines that wait together are written with one write; when it fails, the lines it wrote whole stay, the
    /// line it cut is taken back out and reported, and the lines after it are written, as if each had its own.
    @Test func aWriteErrorInABatchOfLinesLosesTheLineItCutAlone() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writes = FlakyWrites()
        let (dispatcher, journal) = try makeJournal(writes, url: url)
        let (entered, held) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let heard = LockedBox<[Int]>([])
        journal.onWriteError = { error in
            guard case .writeFailed(_, let step, _) = error else { return }
            heard.withValue { $0.append(step) }
            if step == 1 {
                entered.signal()
                held.wait()  // NB: the writer waits here while steps 2 to 4 are handed over together
            }
        }

        writes.failNext(1)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        entered.wait()
        try dispatcher.dispatch(.shelve, payload: "Emma")
        try dispatcher.dispatch(.shelve, payload: "Ulysses")
        try dispatcher.dispatch(.shelve, payload: "Middlemarch")
        writes.writeHalfThenFail()  // half of the three lines: the second is cut
        held.signal()
        journal.stop()

        #expect(heard.value == [1, 3])
        #expect(try Journal.records(contentsOf: url).map(\.sequence) == [2, 4])
        let fresh = try makeShelfDispatcher()
        let report = try Journal.replay(contentsOf: url, into: fresh)
        #expect(report.allMatched, "\(report)")
        #expect(try fresh.store(ShelfStore.self).state == dispatcher.store(ShelfStore.self).state)
    }

    @Test func withoutAHookAWriteErrorGoesToStandardError() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writes = FlakyWrites()
        let (dispatcher, journal) = try makeJournal(writes, url: url)

        let text = try captureStandardError {
            writes.failNext(1)
            try dispatcher.dispatch(.shelve, payload: "Dune")
            journal.flush()
        }

        #expect(text.contains("Fluxion: step 1 was not written to the journal file \(url.path)"), "\(text)")
        journal.stop()
    }

    @Test func aHookMayFlushOrStopTheJournal() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writes = FlakyWrites()
        let (dispatcher, journal) = try makeJournal(writes, url: url)
        let heard = LockedBox(0)
        journal.onWriteError = { [weak journal] _ in
            journal?.flush()
            journal?.stop()
            heard.withValue { $0 += 1 }
        }

        writes.failNext(1)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        #expect(finishesInTime { journal.flush() })

        #expect(heard.value == 1)
        try dispatcher.dispatch(.shelve, payload: "Emma")  // stopped: not recorded
        #expect(journal.records.count == 1)
    }
}
