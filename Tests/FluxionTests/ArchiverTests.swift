import Fluxion
import Foundation
import Testing

/// The archiver, seen through a dispatcher with a persistent ``NotesStore``: what it writes after a failed save.
@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct ArchiverTests {
    let scheduler = ManualScheduler()
    let storage = ScriptedStorage()
    let errors = Recorder<PersistenceError>()

    /// A dispatcher with ``NotesStore`` saved to ``storage`` under "notes", its errors going to ``errors``.
    func dispatcher() throws -> Dispatcher {
        let dispatcher = Dispatcher()
        let errors = errors
        dispatcher.onPersistenceError = { errors.append($0) }
        try dispatcher.register(
            NotesStore.self, persistence: Persistence(storage: storage, key: "notes", scheduler: scheduler))
        return dispatcher
    }

    /// The failed state is kept for a retry only when nothing newer came during its write:
    /// putting it back over the newer one would lose the newer change.
    @Test func aFailedSaveDoesNotReplaceANewerStateRecordedDuringIt() throws {
        let dispatcher = try dispatcher()
        try dispatcher.dispatch(.addNote, payload: "older")
        let entered = ArrivalCounter()
        let release = Gate()
        storage.holdNextSave(entered: entered, release: release, thenFailWith: TestError("disk full"))

        let writer = DispatchGroup()
        writer.runOnNewThread { [scheduler] in
            scheduler.advance(by: .seconds(2))  // saves "older", which waits for `release`, then fails
        }
        entered.wait(for: 1)
        try dispatcher.dispatch(.addNote, payload: "newer")  // recorded while "older" is being written
        release.open()
        writer.wait()

        #expect(errors.values == [.saveFailed(key: "notes", reason: "TestError(disk full)")])
        #expect(storage.archives["notes"] == nil)

        scheduler.advance(by: .seconds(2))  // the timer "newer" started comes due
        #expect(storage.saves.count == 2)
        let written = try unarchive(NotesState.self, from: try #require(storage.archives["notes"]))
        #expect(written.state == NotesState(notes: ["older", "newer"], revision: 2))

        dispatcher.flush()  // nothing is left to write
        #expect(storage.saves.count == 2)
        #expect(errors.values.count == 1)
    }
}
