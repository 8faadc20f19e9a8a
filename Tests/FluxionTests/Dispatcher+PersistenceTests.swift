import Fluxion
import Foundation
import Testing

/// A state with a field kept out of the archive by its `CodingKeys`.
struct DraftState: Codable, Sendable, Equatable {
    var saved: [String] = []
    /// Not archived: it is missing from `CodingKeys`, so it decodes to its default.
    var draft = ""

    enum CodingKeys: String, CodingKey {
        case saved
    }
}

extension ActionName where Payload == String {
    fileprivate static var typeDraft: Self { "typeDraft" }
    fileprivate static var saveDraft: Self { "saveDraft" }
}

final class DraftStore: Store<DraftState>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: DraftState()) }

    override class var handlers: HandlerTable<DraftState> {
        HandlerTable()
            .on(.typeDraft) { state, action in state.draft = action.payload }
            .on(.saveDraft) { state, action in state.saved.append(action.payload) }
    }
}

/// Version 1 of the notes schema, before `NotesState`: titles only.
private struct NotesStateV1: Codable {
    var titles: [String]
}

@Suite struct DispatcherPersistenceTests {
    let scheduler = ManualScheduler()
    let storage = ScriptedStorage()
    let errors = Recorder<PersistenceError>()

    func persistence(
        storage: (any StateStorage)? = nil,
        key: String = "notes",
        version: Int = 1,
        migrate: (@Sendable (Int, Data) throws -> NotesState)? = nil
    ) -> Persistence<NotesState> {
        Persistence(
            storage: storage ?? self.storage, key: key, version: version, scheduler: scheduler, migrate: migrate)
    }

    func dispatcher(_ persistence: Persistence<NotesState>? = nil) throws -> Dispatcher {
        let dispatcher = Dispatcher()
        let errors = errors
        dispatcher.onPersistenceError = { errors.append($0) }
        try dispatcher.register(NotesStore.self, persistence: persistence ?? self.persistence())
        return dispatcher
    }

    // MARK: Keys

    @Test func aKeyBelongsToOneStoreTypeUntilItIsUnregistered() throws {
        let dispatcher = try dispatcher()
        let draft = Persistence<DraftState>(storage: storage, key: "notes", scheduler: scheduler)

        #expect(throws: PersistenceError.self) { try dispatcher.register(DraftStore.self, persistence: draft) }
        #expect(throws: FluxionError.storeAlreadyRegistered("NotesStore")) {
            try dispatcher.register(NotesStore.self, persistence: persistence())
        }
        #expect(throws: PersistenceError.self) { try dispatcher.register(DraftStore.self, persistence: draft) }
        #expect(!dispatcher.isRegistered(DraftStore.self))

        dispatcher.unregister(NotesStore.self)
        try dispatcher.register(DraftStore.self, persistence: draft)
        #expect(dispatcher.isRegistered(DraftStore.self))
    }

    // MARK: Restoring

    @Test func aSecondDispatcherRestoresWhatTheFirstSaved() throws {
        let first = try dispatcher()
        try first.dispatch(.addNote, payload: "milk")
        try first.dispatch(.addNote, payload: "eggs")
        first.flush()

        let second = try dispatcher()
        #expect(try second.store(NotesStore.self).state == NotesState(notes: ["milk", "eggs"], revision: 2))
        #expect(errors.values.isEmpty)
    }

    @Test func restoringHappensBeforeTheFirstObserverAndTheFirstHandler() throws {
        try storage.save(archive(NotesState(notes: ["restored"], revision: 7)), key: "notes")

        let viaDispatch = try dispatcher()
        try viaDispatch.dispatch(.addNote, payload: "new")  // creates the store, then runs its handler
        #expect(try viaDispatch.store(NotesStore.self).state == NotesState(notes: ["restored", "new"], revision: 8))

        let viaAccess = try dispatcher()
        let seen = Recorder<StoreChange<NotesState>>()
        let token = try viaAccess.store(NotesStore.self).observe(sendingCurrentState: true) { seen.append($0) }
        try viaAccess.dispatch(.addNote, payload: "next")
        withExtendedLifetime(token) {}

        let changes = seen.values
        #expect(changes.count == 2)
        #expect(changes.first?.isCurrentState == true)
        #expect(changes.first?.newState == NotesState(notes: ["restored"], revision: 7))
        #expect(changes.last?.oldState == NotesState(notes: ["restored"], revision: 7))
        #expect(changes.allSatisfy { $0.oldState != NotesState() && $0.newState != NotesState() })
    }

    @Test func registeringDoesNotReadTheArchive() throws {
        try storage.save(Data("not json".utf8), key: "notes")
        _ = try dispatcher()
        #expect(errors.values.isEmpty)
        #expect(storage.archives.keys.sorted() == ["notes"])
    }

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

        await dispatcher.flush()

        #expect(storage.saves.count == 1)
        #expect(try unarchive(NotesState.self, from: storage.saves[0]).state.notes == ["later"])
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

    // MARK: Bad archives

    @Test(arguments: [
        ("not json at all", "not valid JSON"),
        (#"{"version": 1, "state": {"notes": "one", "revision": 1}}"#, "notes"),
        (#"{"state": {"notes": [], "revision": 1}}"#, "version"),
        (#"[1, 2, 3]"#, "array"),
    ])
    func aCorruptArchiveIsReportedAndSetAside(contents: String, reasonMentions: String) throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let files = FileStateStorage(directory: directory)
        try files.save(Data(contents.utf8), key: "notes")
        let dispatcher = try dispatcher(persistence(storage: files))

        #expect(try dispatcher.store(NotesStore.self).state == NotesState())

        let reported = errors.values
        #expect(reported.count == 1)
        guard case .corruptArchive(let key, let setAsideAs, let reason)? = reported.first else {
            Issue.record("expected corruptArchive, got \(reported)")
            return
        }
        #expect(key == "notes")
        #expect(reason.localizedCaseInsensitiveContains(reasonMentions))
        let asidePath = try #require(setAsideAs)
        #expect(asidePath.hasPrefix(directory.appendingPathComponent("notes.json.corrupt-").path))
        #expect(asidePath.wholeMatch(of: /.*\/notes\.json\.corrupt-\d{8}T\d{6}\.\d{3}Z/) != nil)
        #expect(FileManager.default.contents(atPath: asidePath) == Data(contents.utf8))
        #expect(try files.load(key: "notes") == nil)

        try dispatcher.dispatch(.addNote, payload: "fresh")
        dispatcher.flush()
        #expect(fileNames(in: directory).count == 2)  // the new archive and the one set aside
        #expect(FileManager.default.contents(atPath: asidePath) == Data(contents.utf8))
        let fresh = try #require(try files.load(key: "notes"))
        #expect(try unarchive(NotesState.self, from: fresh).state.notes == ["fresh"])
    }

    @Test func anArchiveOfANewerVersionIsReportedAndSetAside() throws {
        try storage.save(archive(NotesState(notes: ["future"]), version: 3), key: "notes")
        let dispatcher = try dispatcher(persistence(version: 2))

        #expect(try dispatcher.store(NotesStore.self).state == NotesState())
        let aside = try #require(storage.archives.keys.first { $0.hasPrefix("notes.corrupt-") })
        #expect(errors.values == [.newerVersion(key: "notes", found: 3, supported: 2, setAsideAs: aside)])
        #expect(storage.archives["notes"] == nil)
        #expect(errors.values.first?.description.contains("version 3") == true)
    }

    @Test func anArchiveOfAnOlderVersionGoesThroughTheMigration() throws {
        try storage.save(archive(NotesStateV1(titles: ["a", "b"]), version: 1), key: "notes")
        let versions = Recorder<Int>()
        let dispatcher = try dispatcher(
            persistence(version: 2) { version, json in
                versions.append(version)
                let old = try JSONDecoder().decode(NotesStateV1.self, from: json)
                return NotesState(notes: old.titles, revision: old.titles.count)
            })

        #expect(try dispatcher.store(NotesStore.self).state == NotesState(notes: ["a", "b"], revision: 2))
        #expect(versions.values == [1])
        #expect(errors.values.isEmpty)

        scheduler.advance(by: .seconds(2))  // the migrated state is written in the current version
        let rewritten = try unarchive(NotesState.self, from: try #require(storage.archives["notes"]))
        #expect(rewritten.version == 2)
        #expect(rewritten.state == NotesState(notes: ["a", "b"], revision: 2))
    }

    @Test func anOlderArchiveThatStillDecodesNeedsNoMigration() throws {
        try storage.save(archive(NotesState(notes: ["same"], revision: 1), version: 1), key: "notes")
        let dispatcher = try dispatcher(persistence(version: 2))
        #expect(try dispatcher.store(NotesStore.self).state.notes == ["same"])
        #expect(errors.values.isEmpty)
    }

    @Test func aFailingMigrationIsReportedAndSetAside() throws {
        try storage.save(archive(NotesStateV1(titles: ["a"]), version: 1), key: "notes")
        let dispatcher = try dispatcher(persistence(version: 2) { _, _ in throw TestError("cannot migrate") })

        #expect(try dispatcher.store(NotesStore.self).state == NotesState())
        let aside = try #require(storage.archives.keys.first { $0.hasPrefix("notes.corrupt-") })
        #expect(
            errors.values == [
                .migrationFailed(key: "notes", from: 1, to: 2, setAsideAs: aside, reason: "TestError(cannot migrate)")
            ])
    }

    @Test func anOlderArchiveThatDoesNotDecodeWithoutAMigrationIsReported() throws {
        try storage.save(archive(NotesStateV1(titles: ["a"]), version: 1), key: "notes")
        let dispatcher = try dispatcher(persistence(version: 2))

        #expect(try dispatcher.store(NotesStore.self).state == NotesState())
        guard case .migrationFailed(_, 1, 2, _, let reason)? = errors.values.first else {
            Issue.record("expected migrationFailed, got \(errors.values)")
            return
        }
        #expect(reason.contains("no migration"))
    }

    // MARK: Save failures

    /// Tests run as root here, so a read-only directory would still be writable;
    /// the directory path is a regular file instead, which fails every save with ENOTDIR.
    @Test func aFailedSaveIsReportedTheStateStaysAndTheNextSaveRetries() throws {
        let parent = try makeTemporaryDirectory()
        defer { removeDirectory(parent) }
        let directory = parent.appendingPathComponent("state")
        try Data("a file where the directory should be".utf8).write(to: directory)
        let files = FileStateStorage(directory: directory)
        let dispatcher = try dispatcher(persistence(storage: files))

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

    // MARK: Configuration

    @Test(arguments: ["", ".hidden", "a/b", "../escape", "with space", String(repeating: "k", count: 129)])
    func anInvalidKeyIsAThrownErrorNamingIt(key: String) throws {
        let dispatcher = Dispatcher()
        #expect {
            try dispatcher.register(NotesStore.self, persistence: persistence(key: key))
        } throws: { error in
            guard case .invalidKey(let named, _)? = error as? PersistenceError else { return false }
            return named == key
        }
        #expect(!dispatcher.isRegistered(NotesStore.self))
    }

    @Test func aNegativeDebounceOrAVersionBelowOneIsAThrownError() throws {
        let dispatcher = Dispatcher()
        var negative = persistence()
        negative.debounce = .seconds(-1)
        #expect(
            throws: PersistenceError.invalidConfiguration(
                key: "notes", reason: "the debounce interval -1.0 seconds is negative")
        ) {
            try dispatcher.register(NotesStore.self, persistence: negative)
        }
        var long = persistence()
        long.debounce = .seconds(86_401)
        #expect(
            throws: PersistenceError.invalidConfiguration(
                key: "notes", reason: "the debounce interval 86401.0 seconds is longer than a day")
        ) {
            try dispatcher.register(NotesStore.self, persistence: long)
        }
        #expect(
            throws: PersistenceError.invalidConfiguration(key: "notes", reason: "the schema version 0 is below 1")
        ) {
            try dispatcher.register(NotesStore.self, persistence: persistence(version: 0))
        }
        #expect(!dispatcher.isRegistered(NotesStore.self))
    }

    @Test func registeringAPersistentTypeTwiceThrowsStoreAlreadyRegistered() throws {
        let dispatcher = try dispatcher()
        #expect(throws: FluxionError.storeAlreadyRegistered("NotesStore")) {
            try dispatcher.register(NotesStore.self, persistence: persistence())
        }
    }

    // MARK: Excluded fields

    @Test func aFieldMissingFromCodingKeysIsNotArchived() throws {
        let memory = InMemoryStateStorage()
        let first = Dispatcher()
        try first.register(
            DraftStore.self, persistence: Persistence(storage: memory, key: "drafts", scheduler: scheduler))
        try first.dispatch(.saveDraft, payload: "kept")
        try first.dispatch(.typeDraft, payload: "half-typed")
        first.flush()

        let json = try #require(memory.archives["drafts"].map { String(decoding: $0, as: UTF8.self) })
        #expect(json.contains("kept"))
        #expect(!json.contains("half-typed"))
        #expect(!json.contains("draft\""))

        let second = Dispatcher()
        try second.register(
            DraftStore.self, persistence: Persistence(storage: memory, key: "drafts", scheduler: scheduler))
        #expect(try second.store(DraftStore.self).state == DraftState(saved: ["kept"], draft: ""))
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
