import Fluxion
import Foundation
import Testing

/// How many notes ``NotesStore`` holds: derived from it, then kept up to date with `waitFor`.
private final class NoteCountStore: Store<Int>, @unchecked Sendable {  // locked by Store
    init(counting notes: NotesState) { super.init(initialState: notes.notes.count) }

    override class var handlers: Handlers {
        HandlerTable().route(.addNote, to: NoteCountStore.recount)
    }

    func recount(_ count: inout Int, _ action: Action<String>) throws {
        count = try waitFor(NotesStore.self).state.notes.count
    }
}

/// The notes' first line, derived from ``NotesStore``; handles no action, so it is created only when asked for.
private final class FirstNoteStore: Store<String>, @unchecked Sendable {  // locked by Store
    init(from notes: NotesState) { super.init(initialState: notes.notes.first ?? "none") }
}

/// Asks for ``FirstNoteStore`` in the middle of `.addNote`, after ``NotesStore`` staged its change.
private final class PeekingStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: Handlers {
        HandlerTable().route(.addNote, to: PeekingStore.peek)
    }

    func peek(_ seen: inout [String], _ action: Action<String>) throws {
        try waitFor(NotesStore.self)
        let first = try dispatcher?.store(FirstNoteStore.self)
        seen.append(first?.state ?? "no store")
    }
}

/// Two sources: the notes and a plain count.
private final class SummaryStore: Store<String>, @unchecked Sendable {  // locked by Store
    init(notes: NotesState, count: Int) { super.init(initialState: "\(notes.notes.joined(separator: ",")) #\(count)") }
}

private final class CounterSourceStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 7) }
}

private final class LoopAStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }
    init(from other: Int) { super.init(initialState: other) }
}

private final class LoopBStore: Store<Int>, @unchecked Sendable {  // locked by Store
    init(from other: Int) { super.init(initialState: other) }
}

@Suite(.timeLimit(.minutes(10))) struct DispatcherDerivedStoreTests {
    /// A dispatcher whose notes are restored from an archive holding `notes`.
    private func restoredNotes(_ notes: [String]) throws -> Dispatcher {
        let storage = InMemoryStateStorage(["notes": try archive(NotesState(notes: notes, revision: 1))])
        let dispatcher = Dispatcher()
        try dispatcher.register(NotesStore.self, persistence: Persistence(storage: storage, key: "notes"))
        return dispatcher
    }

    @Test func aDerivedStoreStartsFromItsSourceAsRestored() throws {
        let dispatcher = try restoredNotes(["milk", "eggs"])
        try dispatcher.register(NoteCountStore.self, derivedFrom: NotesStore.self) { notes in
            NoteCountStore(counting: notes)
        }

        #expect(try dispatcher.store(NoteCountStore.self).state == 2)
        try dispatcher.dispatch(.addNote, payload: "tea")
        #expect(try dispatcher.store(NoteCountStore.self).state == 3)
    }

    @Test func aDerivedStoreFirstNeededByAnActionStartsFromItsSourceBeforeTheAction() throws {
        let dispatcher = try restoredNotes(["milk"])
        try dispatcher.register(NoteCountStore.self, derivedFrom: NotesStore.self) { notes in
            NoteCountStore(counting: notes)
        }

        try dispatcher.dispatch(.addNote, payload: "tea")  // creates both stores, then runs their handlers

        #expect(try dispatcher.store(NoteCountStore.self).state == 2)
    }

    @Test func aDerivedStoreCreatedInsideAnActionStartsFromTheCommittedStateNotTheStagedOne() throws {
        let dispatcher = try restoredNotes([])
        try dispatcher.register(PeekingStore.self)
        try dispatcher.register(FirstNoteStore.self, derivedFrom: NotesStore.self) { FirstNoteStore(from: $0) }

        try dispatcher.dispatch(.addNote, payload: "tea")

        #expect(try dispatcher.store(PeekingStore.self).state == ["none"], "not the staged \"tea\"")
        #expect(try dispatcher.store(NotesStore.self).state.notes == ["tea"])
    }

    @Test func aDerivedStoreCanStartFromTwoSources() throws {
        let dispatcher = try restoredNotes(["milk", "eggs"])
        try dispatcher.register(CounterSourceStore.self)
        try dispatcher.register(SummaryStore.self, derivedFrom: NotesStore.self, CounterSourceStore.self) {
            notes, count in
            SummaryStore(notes: notes, count: count)
        }

        #expect(try dispatcher.store(SummaryStore.self).state == "milk,eggs #7")
    }

    @Test func aPersistedDerivedStoreStartsFromItsOwnArchiveWhenThereIsOne() throws {
        let dispatcher = try restoredNotes(["milk"])
        let storage = InMemoryStateStorage(["count": try archive(40)])
        try dispatcher.register(
            NoteCountStore.self, derivedFrom: NotesStore.self, persistence: Persistence(storage: storage, key: "count")
        ) { NoteCountStore(counting: $0) }

        #expect(try dispatcher.store(NoteCountStore.self).state == 40)
    }

    @Test func aSourceThatIsNotRegisteredIsRefusedAtRegistration() throws {
        let dispatcher = Dispatcher()
        #expect(throws: FluxionError.sourceNotRegistered("NotesStore", derivedStore: "NoteCountStore")) {
            try dispatcher.register(NoteCountStore.self, derivedFrom: NotesStore.self) { NoteCountStore(counting: $0) }
        }
        #expect(!dispatcher.isRegistered(NoteCountStore.self))
        #expect(
            FluxionError.sourceNotRegistered("NotesStore", derivedStore: "NoteCountStore").description
                == "Store NoteCountStore starts from NotesStore, which is not registered with this dispatcher; register NotesStore first."
        )
    }

    @Test func aSourceUnregisteredBeforeTheDerivedStoreIsCreatedIsAnErrorAndTheStoreCanBeCreatedLater() throws {
        let dispatcher = try restoredNotes(["milk"])
        try dispatcher.register(NoteCountStore.self, derivedFrom: NotesStore.self) { NoteCountStore(counting: $0) }
        dispatcher.unregister(NotesStore.self)

        #expect(throws: FluxionError.sourceNotRegistered("NotesStore", derivedStore: "NoteCountStore")) {
            try dispatcher.store(NoteCountStore.self)
        }
        try dispatcher.register(NotesStore.self)
        #expect(try dispatcher.store(NoteCountStore.self).state == 0)
    }

    @Test func storesThatStartFromEachOtherAreRefused() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(LoopAStore.self)
        try dispatcher.register(LoopBStore.self, derivedFrom: LoopAStore.self) { LoopBStore(from: $0) }
        dispatcher.unregister(LoopAStore.self)

        #expect(throws: FluxionError.derivationCycle(["LoopAStore", "LoopBStore", "LoopAStore"])) {
            try dispatcher.register(LoopAStore.self, derivedFrom: LoopBStore.self) { LoopAStore(from: $0) }
        }
    }
}
