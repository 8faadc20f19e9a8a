import Fluxion
import Foundation

/// What the `Dispatcher+Persistence…Tests` suites share: a manual clock, a scripted storage and
/// a recorder of the persistence errors, with helpers that make a ``NotesStore`` persistence over
/// them and a dispatcher that has ``NotesStore`` registered with it.
protocol NotesPersistenceFixture {
    var scheduler: ManualScheduler { get }
    var storage: ScriptedStorage { get }
    var errors: Recorder<PersistenceError> { get }
}

extension NotesPersistenceFixture {
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
}
