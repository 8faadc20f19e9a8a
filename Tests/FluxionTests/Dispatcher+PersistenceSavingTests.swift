import Fluxion
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct DispatcherPersistenceSavingTests: NotesPersistenceFixture {
    let scheduler = ManualScheduler()
    let storage = ScriptedStorage()
    let errors = Recorder<PersistenceError>()

    // MARK: Saving

    @Test func aThousandRapidDispatchesWriteOnceAfterTheDebounce() throws {
        let dispatcher = try dispatcher()
        for index in 0..<1_000 {
            try dispatcher.dispatch(.addNote, payload: "note \(index)")
            scheduler.advance(by: .milliseconds(1))  // each change comes well within the 2 s of quiet
        }
        #expect(storage.saves.isEmpty)

        // The last change came at 999 ms, and the clock reads 1 s: the write is due at 2.999 s.
        scheduler.advance(by: .milliseconds(1_998))
        #expect(storage.saves.isEmpty)

        scheduler.advance(by: .milliseconds(1))
        #expect(storage.saves.count == 1)
        let saved = try unarchive(NotesState.self, from: try #require(storage.saves.first))
        #expect(saved.state.revision == 1_000)
        #expect(saved.state.notes.last == "note 999")

        scheduler.advance(by: .seconds(60))
        #expect(storage.saves.count == 1)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aStoreThatKeepsChangingIsSavedFiveDebounceIntervalsAfterItsFirstChange() throws {
        let dispatcher = try dispatcher()
        for index in 0..<10 {
            #expect(storage.saves.isEmpty, "no save before 10 s (at \(index) s)")
            try dispatcher.dispatch(.addNote, payload: "note \(index)")
            scheduler.advance(by: .seconds(1))  // never 2 s of quiet
        }

        #expect(storage.saves.count == 1, "saved at 10 s: five debounce intervals after the first change")
        let saved = try unarchive(NotesState.self, from: try #require(storage.saves.first))
        #expect(saved.state.revision == 10)
    }

    @Test func aBurstAtOneInstantWritesOnceAfterTheDebounce() throws {
        let dispatcher = try dispatcher()
        for index in 0..<1_000 {
            try dispatcher.dispatch(.addNote, payload: "note \(index)")
        }
        #expect(scheduler.pendingCount == 1)  // one timer for the whole burst

        scheduler.advance(by: .seconds(2))
        #expect(storage.saves.count == 1)
        #expect(try unarchive(NotesState.self, from: storage.saves[0]).state.revision == 1_000)
    }

    @Test func theDebounceIntervalIsConfigurable() throws {
        var persistence = persistence()
        persistence.debounce = .milliseconds(300)
        let dispatcher = try dispatcher(persistence)
        try dispatcher.dispatch(.addNote, payload: "a")

        scheduler.advance(by: .milliseconds(299))
        #expect(storage.saves.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(storage.saves.count == 1)
    }

    @Test func flushWritesImmediately() throws {
        let dispatcher = try dispatcher()
        try dispatcher.dispatch(.addNote, payload: "now")

        dispatcher.flush()
        #expect(storage.saves.count == 1)
        #expect(try unarchive(NotesState.self, from: storage.saves[0]).state.notes == ["now"])

        scheduler.advance(by: .seconds(10))  // the debounce timer finds nothing left to write
        #expect(storage.saves.count == 1)

        dispatcher.flush()  // nothing pending: no write
        #expect(storage.saves.count == 1)
    }

    @Test func asyncFlushWritesImmediately() async throws {
        let dispatcher = try dispatcher()
        try dispatcher.dispatch(.addNote, payload: "later")

        await dispatcher.waitUntilFlushed()

        #expect(storage.saves.count == 1)
        #expect(try unarchive(NotesState.self, from: storage.saves[0]).state.notes == ["later"])
    }

    /// On Linux, Dispatch's global queues run on the threads Swift runs every task on, named after their queue:
    /// an async flush wrote there, blocking one of them for the whole write and any write under way (issue 44).
    @Test(.enabled(if: globalQueuesAreTheGlobalExecutors, "Dispatch's global queues are apart here"))
    func asyncFlushWritesOffTheGlobalExecutorsThreads() async throws {
        let dispatcher = try dispatcher()
        try dispatcher.dispatch(.addNote, payload: "later")
        let taskThread = await Task(priority: .userInitiated) { currentThreadName() }.value

        await dispatcher.waitUntilFlushed()

        let writeThread = try #require(storage.saveThreads.first)
        #expect(writeThread != taskThread, "the write ran on \(writeThread), a thread of the global executor")
    }

    @Test func aChangeDuringAWriteIsSavedAfterIt() throws {
        let dispatcher = try dispatcher()
        try dispatcher.dispatch(.addNote, payload: "first")
        let entered = ArrivalCounter()
        let release = Gate()
        storage.holdNextSave(entered: entered, release: release)

        let writer = DispatchGroup()
        writer.enter()
        Thread { [scheduler] in
            scheduler.advance(by: .seconds(2))  // runs the save, which waits for `release`
            writer.leave()
        }.start()
        entered.wait(for: 1)

        try dispatcher.dispatch(.addNote, payload: "second")  // returns: a write under way never blocks a dispatch
        release.open()
        writer.wait()

        #expect(storage.saves.count == 1)
        #expect(try unarchive(NotesState.self, from: storage.saves[0]).state.notes == ["first"])

        scheduler.advance(by: .seconds(2))
        #expect(storage.saves.count == 2)
        #expect(try unarchive(NotesState.self, from: storage.saves[1]).state.notes == ["first", "second"])
    }

    @Test func flushWaitsForAWriteUnderWayThenWritesTheNewerState() throws {
        let dispatcher = try dispatcher()
        try dispatcher.dispatch(.addNote, payload: "first")
        let entered = ArrivalCounter()
        let release = Gate()
        storage.holdNextSave(entered: entered, release: release)

        let writer = DispatchGroup()
        writer.enter()
        Thread { [scheduler] in
            scheduler.advance(by: .seconds(2))
            writer.leave()
        }.start()
        entered.wait(for: 1)
        try dispatcher.dispatch(.addNote, payload: "second")

        let flushed = DispatchGroup()
        flushed.enter()
        Thread {
            dispatcher.flush()
            flushed.leave()
        }.start()
        release.open()
        flushed.wait()
        writer.wait()

        #expect(storage.saves.count == 2)
        #expect(try unarchive(NotesState.self, from: storage.saves[1]).state.notes == ["first", "second"])
    }

    @Test func theDefaultSchedulerSavesOnItsOwnQueueNotTheDispatchingThread() throws {
        let saved = ArrivalCounter()
        let savingThreads = Recorder<ObjectIdentifier>()
        let storage = ThreadRecordingStorage {
            savingThreads.append(ObjectIdentifier(Thread.current))
        } then: {
            saved.arrive()
        }
        let dispatcher = Dispatcher()
        try dispatcher.register(
            NotesStore.self, persistence: Persistence(storage: storage, key: "notes", debounce: .zero))

        try dispatcher.dispatch(.addNote, payload: "queued")
        saved.wait(for: 1)

        #expect(savingThreads.values.count == 1)
        #expect(savingThreads.values.first != ObjectIdentifier(Thread.current))
        let data = try #require(storage.base.load(key: "notes"))
        #expect(try unarchive(NotesState.self, from: data).state.notes == ["queued"])
    }

    @Test func aHandlerThatThrowsSchedulesNoSave() throws {
        let dispatcher = try dispatcher()
        #expect(throws: TestError("no")) { try dispatcher.dispatch(.rejectNote, payload: "no") }
        #expect(scheduler.pendingCount == 0)
        dispatcher.flush()
        #expect(storage.saves.isEmpty)
    }

    @Test func aStoreRegisteredAgainRestoresTheLastStateOfTheOldOne() throws {
        let dispatcher = try dispatcher()
        try dispatcher.dispatch(.addNote, payload: "kept")  // pending, not written yet
        dispatcher.unregister(NotesStore.self)

        try dispatcher.register(NotesStore.self, persistence: persistence())
        #expect(try dispatcher.store(NotesStore.self).state.notes == ["kept"])
    }

    @Test func aStoreAnotherDispatcherOwnsIsNeitherRestoredNorSaved() throws {
        try storage.save(archive(NotesState(notes: ["archived"], revision: 1)), key: "notes")
        let shared = NotesStore()
        let owner = Dispatcher()
        try owner.register(NotesStore.self) { shared }
        try owner.dispatch(.addNote, payload: "live")
        let second = Dispatcher()
        try second.register(NotesStore.self, persistence: persistence()) { shared }

        #expect(throws: FluxionError.storeAlreadyOwned("NotesStore")) { try second.store(NotesStore.self) }

        try owner.dispatch(.addNote, payload: "still live")
        second.flush()
        #expect(shared.state.notes == ["live", "still live"])
        #expect(storage.saves.count == 1)  // the archive this test wrote, and nothing since
    }

    // MARK: Save failures

    /// Tests run as root here, so a read-only directory would still be writable; the directory is
    /// replaced by a regular file once the store is registered instead, which fails every save with ENOTDIR.
    @Test func aFailedSaveIsReportedTheStateStaysAndTheNextSaveRetries() throws {
        let parent = try makeTemporaryDirectory()
        defer { removeDirectory(parent) }
        let directory = parent.appendingPathComponent("state")
        let files = FileStateStorage(directory: directory)
        let dispatcher = try dispatcher(persistence(storage: files))
        _ = try dispatcher.store(NotesStore.self)
        try FileManager.default.removeItem(at: directory)
        try Data("a file where the directory should be".utf8).write(to: directory)

        try dispatcher.dispatch(.addNote, payload: "precious")
        scheduler.advance(by: .seconds(2))

        guard case .saveFailed(let key, let reason)? = errors.values.first else {
            Issue.record("expected saveFailed, got \(errors.values)")
            return
        }
        #expect(key == "notes")
        #expect(reason.contains(directory.path))
        #expect(errors.values.count == 1)
        #expect(try dispatcher.store(NotesStore.self).state.notes == ["precious"])

        try FileManager.default.removeItem(at: directory)
        dispatcher.flush()  // no new change: the failed save is retried

        #expect(errors.values.count == 1)
        let saved = try #require(try files.load(key: "notes"))
        #expect(try unarchive(NotesState.self, from: saved).state.notes == ["precious"])
    }

    @Test func aFailingCustomStorageIsReportedAndRetriedWithTheNewestState() throws {
        let dispatcher = try dispatcher()
        storage.failSaves(with: TestError("disk full"))
        try dispatcher.dispatch(.addNote, payload: "one")
        scheduler.advance(by: .seconds(2))
        #expect(errors.values == [.saveFailed(key: "notes", reason: "TestError(disk full)")])
        #expect(storage.archives["notes"] == nil)

        storage.failSaves(with: nil)
        try dispatcher.dispatch(.addNote, payload: "two")
        scheduler.advance(by: .seconds(2))

        #expect(storage.saves.count == 2)
        #expect(
            try unarchive(NotesState.self, from: try #require(storage.archives["notes"])).state.notes == ["one", "two"])
    }
}

/// A storage over memory that calls `during` inside each save and `then` after it.
private final class ThreadRecordingStorage: StateStorage, Sendable {
    let base = InMemoryStateStorage()
    private let during: @Sendable () -> Void
    private let then: @Sendable () -> Void

    init(during: @escaping @Sendable () -> Void, then: @escaping @Sendable () -> Void) {
        self.during = during
        self.then = then
    }

    func load(key: String) -> Data? {
        base.load(key: key)
    }

    func save(_ data: Data, key: String) {
        during()
        base.save(data, key: key)
        then()
    }
}
