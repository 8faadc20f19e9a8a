import Fluxion
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct InMemoryStateStorageTests {
    @Test func aSavedArchiveLoadsBack() {
        let storage = InMemoryStateStorage()
        storage.save(Data("a".utf8), key: "notes")

        #expect(storage.load(key: "notes") == Data("a".utf8))
        #expect(storage.load(key: "other") == nil)
        #expect(storage.archives == ["notes": Data("a".utf8)])
    }

    @Test func settingAsideMovesTheArchive() {
        let storage = InMemoryStateStorage(["notes": Data("bad".utf8)])

        let aside = storage.setAside(key: "notes", suffix: ".corrupt-X")

        #expect(aside == "notes.corrupt-X")
        #expect(storage.archives == ["notes.corrupt-X": Data("bad".utf8)])
    }

    @Test func aStoreRoundTripsThroughIt() throws {
        let storage = InMemoryStateStorage()
        try roundTrip(through: storage)
    }
}

/// Saves a notes store's state through `storage` with one dispatcher, and restores it with another.
func roundTrip(through storage: any StateStorage, key: String = "notes") throws {
    let persistence = Persistence<NotesState>(storage: storage, key: key, scheduler: ManualScheduler())
    do {
        // NB: one live dispatcher at a time persists to a storage: this one is let go before the second registers.
        let first = Dispatcher()
        try first.register(NotesStore.self, persistence: persistence)
        try first.dispatch(.addNote, payload: "milk")
        try first.dispatch(.addNote, payload: "bread")
        first.flush()
    }

    let second = Dispatcher()
    let errors = Recorder<PersistenceError>()
    second.onPersistenceError = { errors.append($0) }
    try second.register(NotesStore.self, persistence: persistence)
    #expect(try second.store(NotesStore.self).state == NotesState(notes: ["milk", "bread"], revision: 2))
    #expect(errors.values.isEmpty)
}
