import Fluxion
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

@Suite(.timeLimit(.minutes(10))) struct DispatcherPersistenceTests: NotesPersistenceFixture {
    let scheduler = ManualScheduler()
    let storage = ScriptedStorage()
    let errors = Recorder<PersistenceError>()

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

    @Test func aFieldMissingFromCodingKeysIsNotArchived() async throws {
        let memory = InMemoryStateStorage()
        let first = Dispatcher()
        try first.register(
            DraftStore.self, persistence: Persistence(storage: memory, key: "drafts", scheduler: scheduler))
        try first.dispatch(.saveDraft, payload: "kept")
        try first.dispatch(.typeDraft, payload: "half-typed")
        await first.shutdown()  // NB: it releases the storage for the second

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
