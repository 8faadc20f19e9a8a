/// A dispatcher's persistence: the archivers of its persistent stores, the locations it owns, and the error hook.
final class PersistenceCenter: @unchecked Sendable {  // `archivers`, `keys` and `leases` guarded by `lock`
    let reporter = PersistenceErrorReporter()
    private let lock = Lock()
    /// The archivers, in the order their stores were created.
    private var archivers: [any PendingWriter] = []
    /// The store type each key is registered for: two types must not share an archive.
    private var keys: [String: ObjectIdentifier] = [:]
    /// The locations this dispatcher owns, each with how many registrations use it, until they are released.
    private var leases: [ArchiveLocation: (lease: ArchiveLease, registrations: Int)] = [:]

    init() {}

    /// Reserves `key` for the store type `type`.
    ///
    /// - Returns: Whether the key was free (and is now reserved), rather than reserved for `type` already.
    /// - Throws: ``PersistenceError/invalidConfiguration(key:reason:)`` when another registered type uses the key.
    func reserve(_ key: String, for type: ObjectIdentifier, named name: String) throws -> Bool {
        try lock.withLock {
            if let owner = keys[key] {
                guard owner == type else {
                    throw PersistenceError.invalidConfiguration(
                        key: key, reason: "another registered store type archives under this key; \(name) needs its own"
                    )
                }
                return false
            }
            keys[key] = type
            return true
        }
    }

    /// Frees the key of the store type `type`, once it is unregistered.
    func releaseKey(of type: ObjectIdentifier) {
        lock.withLock { keys = keys.filter { $0.value != type } }
    }

    /// Makes this dispatcher the owner of `storage`'s location, unless it owns it already.
    ///
    /// - Returns: The lease, for the registration's archiver; `nil` for a storage with no location.
    /// - Throws: ``PersistenceError/locationInUse(location:byAnotherProcess:)`` when another dispatcher owns it;
    ///   ``PersistenceError/fileOperationFailed(operation:path:reason:)`` for a directory that cannot be made
    ///   ready or locked.
    func claimLocation(of storage: any StateStorage) throws -> ArchiveLease? {
        guard let located = storage as? any LocatedStateStorage else { return nil }
        let location = try located.archiveLocation()
        return try lock.withLock {
            if let owned = leases[location] {
                leases[location]?.registrations += 1
                return owned.lease
            }
            let lease = try ArchiveOwnership.claim(location)
            leases[location] = (lease, 1)
            return lease
        }
    }

    /// Gives up what ``claimLocation(of:)`` took for a registration that failed: the location, if nothing else
    /// uses it.
    func unclaim(_ lease: ArchiveLease) {
        let isUnused = lock.withLock {
            guard let owned = leases[lease.location], owned.lease === lease else { return false }
            leases[lease.location]?.registrations -= 1
            guard owned.registrations == 1 else { return false }
            leases[lease.location] = nil
            return true
        }
        if isUnused { lease.release() }
    }

    /// Releases every location this dispatcher owns, once the writes under way have ended: from now on, its
    /// archivers neither write nor read them, and another dispatcher may claim them.
    func releaseLocations() {
        let released = lock.withLock {
            defer { leases = [:] }
            return leases.values.map(\.lease)
        }
        for lease in released { lease.release() }
    }

    /// The dispatcher is gone: writes what is pending, on this thread, then releases its locations.
    func end() {
        flush()
        releaseLocations()
    }

    /// Restores `store`'s archive into it (or, not `restoring`, saves its state as it is) and starts saving its
    /// changes; called before the store is published.
    func attach<State>(
        _ persistence: Persistence<State>, lease: ArchiveLease?, to store: Store<State>, restoring: Bool = true
    ) {
        // NB: an earlier store of this key (unregistered, then registered again) saves first,
        // so the new store restores its last state.
        for archiver in allArchivers where archiver.key == persistence.key {
            archiver.writePending()
        }
        let archiver = Archiver(persistence, lease: lease, reporter: reporter) { [weak store] in store?.state }
        if !restoring {
            archiver.scheduleSaveOfCurrentState()  // NB: a computed store: its archive is for readers outside
        } else if let state = archiver.restore() {
            store.replaceStateBeforePublication(with: state)
        }
        // NB: an action whose handler threw is no change: only committed states reach the archiver; nor
        // do the states a journal's time travel sets: the archive keeps the present.
        store.observe(owner: archiver) { archiver, change in
            if change.action.name != AnyAction.travelName { archiver.scheduleSave(of: change.newState) }
        }
        lock.withLock { archivers.append(archiver) }
    }

    /// Saves each store's state as it is now: a journal made the past it shows the present.
    func scheduleSavesOfCurrentStates() {
        for archiver in allArchivers { archiver.scheduleSaveOfCurrentState() }
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
