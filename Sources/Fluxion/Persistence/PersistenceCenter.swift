/// A dispatcher's persistence: the archivers of its persistent stores and the error hook.
final class PersistenceCenter: @unchecked Sendable {  // `archivers` guarded by `lock`
    let reporter = PersistenceErrorReporter()
    private let lock = Lock()
    /// The archivers, in the order their stores were created.
    private var archivers: [any PendingWriter] = []

    init() {}

    /// Restores `store`'s archive into it and starts saving its changes; called before the store is published.
    func attach<State>(_ persistence: Persistence<State>, to store: Store<State>) {
        // NB: an earlier store of this key (unregistered, then registered again) saves first,
        // so the new store restores its last state.
        for archiver in allArchivers where archiver.key == persistence.key {
            archiver.writePending()
        }
        let archiver = Archiver(persistence, reporter: reporter)
        if let state = archiver.restore() {
            store.replaceStateBeforePublication(with: state)
        }
        store.observe(owner: archiver) { archiver, change in
            // NB: a handler that threw left the state as it was.
            if change.error == nil { archiver.record(change.newState) }
        }
        lock.withLock { archivers.append(archiver) }
    }

    /// Writes every pending state now, one store after another; returns once all are written.
    func flush() {
        for archiver in allArchivers {
            archiver.writePending()
        }
    }

    private var allArchivers: [any PendingWriter] {
        lock.withLock { archivers }
    }
}
