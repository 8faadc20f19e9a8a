import Fluxion
import Foundation
import Testing

/// Version 1 of the notes schema, before `NotesState`: titles only.
private struct NotesStateV1: Codable {
    var titles: [String]
}

@Suite(.timeLimit(.minutes(10))) struct DispatcherPersistenceRestoringTests: NotesPersistenceFixture {
    let scheduler = ManualScheduler()
    let storage = ScriptedStorage()
    let errors = Recorder<PersistenceError>()

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
        #expect(fileNames(in: directory).count == 3)  // the new archive, the one set aside and the lock file
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
}
