/// Where a storage keeps its archives, as far as ownership goes: one live dispatcher at a time persists there.
///
/// Two storages with one location are one archive store: a directory (by its
/// canonical path), one `UserDefaults` object with one key prefix, or one
/// ``InMemoryStateStorage`` instance. See `ArchiveOwnership`.
struct ArchiveLocation: Hashable, Sendable, CustomStringConvertible {
    /// What makes two locations one.
    enum Identity: Hashable, Sendable {
        /// A ``FileStateStorage`` directory, by its canonical path (symbolic links resolved).
        case directory(String)
        /// A ``UserDefaultsStateStorage``: its defaults object and its key prefix.
        case defaults(ObjectIdentifier, prefix: String)
        /// An ``InMemoryStateStorage`` instance.
        case memory(ObjectIdentifier)
    }

    let identity: Identity
    /// The location as error messages name it.
    let description: String
    /// The file a process locks (`flock`) while it owns the location, so that a second process is refused
    /// too; `nil` for a location only one process can reach.
    let lockFile: LockFile?
    /// What keeps the identity's object alive (and so its identifier unique) while the location is owned.
    let anchor: (any StateStorage)?

    /// A lock file and the mode it is created with.
    struct LockFile: Hashable, Sendable {
        let path: String
        let mode: UInt16
    }

    init(_ identity: Identity, description: String, lockFile: LockFile? = nil, anchor: (any StateStorage)? = nil) {
        self.identity = identity
        self.description = description
        self.lockFile = lockFile
        self.anchor = anchor
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.identity == rhs.identity
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }
}

/// A storage whose archives have an ``ArchiveLocation``, which a dispatcher owns while it persists there.
///
/// The storages Fluxion comes with conform; a storage of your own does not, and is not checked.
protocol LocatedStateStorage: StateStorage {
    /// Where the archives are; a file storage creates its directory for the lock file.
    ///
    /// - Throws: A ``PersistenceError`` when the location cannot be made ready (a directory that cannot be created).
    func archiveLocation() throws -> ArchiveLocation
}
