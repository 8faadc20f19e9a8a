import Fluxion
import Foundation
import Testing

/// One live dispatcher at a time persists to a location; a second is refused until the first releases it.
@Suite(.timeLimit(.minutes(10))) struct ArchiveOwnershipTests {
    /// The storages Fluxion comes with.
    enum Kind: String, CaseIterable, Sendable {
        case files, defaults, memory
    }

    /// A storage of `kind`, and how a refusal names its location; `body` runs with it, then it is removed.
    private func withStorage(_ kind: Kind, _ body: (any StateStorage, String) async throws -> Void) async throws {
        switch kind {
        case .files:
            let directory = try makeTemporaryDirectory()
            defer { removeDirectory(directory) }
            try await body(FileStateStorage(directory: directory), "the directory \(canonicalPath(of: directory))")
        case .defaults:
            let name = "FluxionTests-\(UUID().uuidString)"
            let defaults = try #require(UserDefaults(suiteName: name))
            defer { defaults.removePersistentDomain(forName: name) }
            let storage = UserDefaultsStateStorage(defaults: defaults, prefix: "BankLedger.")
            try await body(storage, #"the defaults keys starting with "BankLedger." in a UserDefaults suite"#)
        case .memory:
            let storage = InMemoryStateStorage()
            try await body(storage, "the InMemoryStateStorage at \(Unmanaged.passUnretained(storage).toOpaque())")
        }
    }

    @Test(arguments: Kind.allCases)
    func aSecondDispatcherIsRefusedNamingTheLocation(kind: Kind) async throws {
        try await withStorage(kind) { storage, location in
            let first = try makeLedgerDispatcher(storage)
            try first.dispatch(.recordEntry, payload: "rent")
            let second = Dispatcher()

            #expect(throws: PersistenceError.locationInUse(location: location, byAnotherProcess: false)) {
                try second.register(BankLedgerStore.self, persistence: ledgerPersistence(storage)) { BankLedgerStore() }
            }
            // NB: refused, the type is not registered: nothing of the second reads or writes the archive.
            #expect(throws: FluxionError.self) { try second.store(BankLedgerStore.self) }
            await first.shutdown()
            #expect(try await restoredLedger(from: storage) == ["rent"])
        }
    }

    @Test(arguments: Kind.allCases)
    func shutdownReleasesTheLocationAndTheDispatcherChangesItNoMore(kind: Kind) async throws {
        try await withStorage(kind) { storage, location in
            let errors = Recorder<PersistenceError>()
            let first = try makeLedgerDispatcher(storage, errors: errors)
            try first.dispatch(.recordEntry, payload: "rent")
            await first.shutdown()

            let second = try makeLedgerDispatcher(storage)
            #expect(try second.store(BankLedgerStore.self).state.entries == ["rent"])
            try second.dispatch(.recordEntry, payload: "groceries")
            second.flush()
            #expect(throws: FluxionError.dispatcherShutDown(action: "ledger.recordEntry")) {
                try first.dispatch(.recordEntry, payload: "late")  // NB: a dispatcher shut down refuses new work
            }
            first.flush()

            #expect(errors.values.isEmpty, "\(location)")
            await second.shutdown()
            #expect(try await restoredLedger(from: storage) == ["rent", "groceries"])
        }
    }

    /// After `shutdown()` the location may be another's: a store first created then does not read it.
    @Test func aStoreFirstCreatedAfterShutdownIsNotRestored() async throws {
        let storage = InMemoryStateStorage()
        let errors = Recorder<PersistenceError>()
        let first = try makeLedgerDispatcher(storage, errors: errors)
        await first.shutdown()
        let second = try makeLedgerDispatcher(storage)
        try second.dispatch(.recordEntry, payload: "rent")
        await second.shutdown()

        #expect(try first.store(BankLedgerStore.self).state.entries == [])
        let location = "the InMemoryStateStorage at \(Unmanaged.passUnretained(storage).toOpaque())"
        #expect(errors.values == [.locationReleased(key: "ledger", location: location)])
    }

    /// A directory is created at registration, for its lock file: one that cannot be is a registration error.
    @Test func aDirectoryThatCannotBeCreatedIsARegistrationErrorNamingIt() throws {
        let parent = try makeTemporaryDirectory()
        defer { removeDirectory(parent) }
        let blocker = parent.appendingPathComponent("state")
        try Data("a file where the directory should be".utf8).write(to: blocker)
        let storage = FileStateStorage(directory: blocker.appendingPathComponent("ledger"))

        #expect(
            throws: PersistenceError.fileOperationFailed(
                operation: "use the directory", path: blocker.path, reason: "it exists and is not a directory")
        ) {
            try makeLedgerDispatcher(storage)
        }
    }

    @Test(arguments: Kind.allCases)
    func aFreedDispatcherWritesWhatItHadPendingAndReleasesTheLocation(kind: Kind) async throws {
        try await withStorage(kind) { storage, _ in
            weak var weakFirst: Dispatcher?
            do {
                let first = try makeLedgerDispatcher(storage)
                try first.dispatch(.recordEntry, payload: "rent")  // NB: pending for an hour
                weakFirst = first
            }
            #expect(weakFirst == nil)

            let second = try makeLedgerDispatcher(storage)
            #expect(try second.store(BankLedgerStore.self).state.entries == ["rent"])
            await second.shutdown()
        }
    }

    /// The case of issue 43: a dispatcher let go while its bank import ran, a second on the same
    /// storage, then the late import. The second is refused while the first lives for its import;
    /// the import saves as the owner; once the first is freed the second opens, records and flushes,
    /// and a third reads everything back.
    @Test(arguments: Kind.allCases)
    func aDispatcherLetGoWhileItsImportRunsLosesNothing(kind: Kind) async throws {
        try await withStorage(kind) { storage, location in
            let bank = SearchService()
            let freed = FreedSignal()
            weak var weakFirst: Dispatcher?
            do {
                let first = try makeLedgerDispatcher(storage, bank: bank, freed: freed)
                try first.dispatch(.recordEntry, payload: "opening balance")
                try first.dispatch(.importFromBank)
                weakFirst = first
            }
            #expect(weakFirst != nil)  // NB: its import keeps it alive

            let second = Dispatcher()
            let register = {
                try second.register(BankLedgerStore.self, persistence: ledgerPersistence(storage)) { BankLedgerStore() }
            }
            #expect(
                throws: PersistenceError.locationInUse(location: location, byAnotherProcess: false),
                performing: register)

            await bank.respond(to: "import", with: ["salary"])  // the late import
            await freed.freed()
            #expect(weakFirst == nil)

            try register()
            #expect(try second.store(BankLedgerStore.self).state.entries == ["opening balance", "salary"])
            try second.dispatch(.recordEntry, payload: "rent")
            second.flush()
            await second.shutdown()

            #expect(try await restoredLedger(from: storage) == ["opening balance", "salary", "rent"])
        }
    }

    @Test func oneDispatcherPersistsSeveralStoresInOneLocation() async throws {
        try await withStorage(.files) { storage, _ in
            let dispatcher = try makeLedgerDispatcher(storage)
            try dispatcher.register(NotesStore.self, persistence: Persistence(storage: storage, key: "notes"))
            try dispatcher.dispatch(.addNote, payload: "milk")
            try dispatcher.dispatch(.recordEntry, payload: "rent")
            await dispatcher.shutdown()

            #expect(try await restoredLedger(from: storage) == ["rent"])
        }
    }

    @Test func twoSpellingsOfOneDirectoryAreOneLocation() async throws {
        let parent = try makeTemporaryDirectory()
        defer { removeDirectory(parent) }
        let directory = parent.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let link = parent.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory)
        let first = try makeLedgerDispatcher(FileStateStorage(directory: directory))
        let location = "the directory \(canonicalPath(of: directory))"

        for spelling in [link, parent.appendingPathComponent("state/../state")] {
            #expect(throws: PersistenceError.locationInUse(location: location, byAnotherProcess: false)) {
                try makeLedgerDispatcher(FileStateStorage(directory: spelling))
            }
        }
        await first.shutdown()
    }

    @Test func anotherInstanceOrPrefixIsAnotherLocation() async throws {
        let memory = InMemoryStateStorage()
        let first = try makeLedgerDispatcher(memory)
        let second = try makeLedgerDispatcher(InMemoryStateStorage(memory.archives))

        let name = "FluxionTests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: name))
        defer { defaults.removePersistentDomain(forName: name) }
        let third = try makeLedgerDispatcher(UserDefaultsStateStorage(defaults: defaults, prefix: "a."))
        let fourth = try makeLedgerDispatcher(UserDefaultsStateStorage(defaults: defaults, prefix: "b."))

        for dispatcher in [first, second, third, fourth] { await dispatcher.shutdown() }
    }

    /// A registration that fails after its storage's location was claimed gives the location up.
    @Test func aFailedRegistrationReleasesTheLocationItClaimed() async throws {
        let (taken, other) = (InMemoryStateStorage(), InMemoryStateStorage())
        let first = try makeLedgerDispatcher(taken)

        #expect(throws: FluxionError.storeAlreadyRegistered("BankLedgerStore")) {
            try first.register(
                BankLedgerStore.self, persistence: Persistence(storage: other, key: "other")
            ) { BankLedgerStore() }
        }

        let second = try makeLedgerDispatcher(other)
        for dispatcher in [first, second] { await dispatcher.shutdown() }
    }
}

/// The path of `url` with every symbolic link resolved, as the refusal names a directory.
func canonicalPath(of url: URL) -> String {
    guard let resolved = realpath(url.path, nil) else { return url.path }
    defer { free(resolved) }
    return String(cString: resolved)
}
