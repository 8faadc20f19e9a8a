#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// Which archive locations this process's dispatchers own: one live dispatcher at a time per location.
///
/// Two rules, one for each reach:
/// - **In this process**, the registry below, keyed by the location's
///   identity (a directory's canonical path, a defaults object and prefix,
///   an in-memory storage's identity), is the rule. It does not rest on the
///   lock file: `flock` belongs to an open file description, and a location
///   in memory or in defaults has no file.
/// - **Across processes**, a location with a lock file is also `flock`ed,
///   exclusively and without waiting, for as long as it is owned. The
///   system releases that lock when the process ends, crash included.
///
/// A claim checks and takes both under the registry's lock, and a release
/// gives both up under it, so that a release in this process is never seen
/// as another process's lock. A release unlocks before it closes: a child
/// this process is starting holds a copy of every descriptor until it
/// executes its program (`O_CLOEXEC` closes it only then), and a copy keeps
/// an open file description, and its `flock`, alive.
enum ArchiveOwnership {
    /// The identities of the locations owned in this process.
    private static let owned = Guarded<Set<ArchiveLocation.Identity>>([])

    /// Takes `location` for a dispatcher of this process.
    ///
    /// - Throws: ``PersistenceError/locationInUse(location:byAnotherProcess:)`` when another dispatcher
    ///   of this process, or another process, owns it; ``PersistenceError/fileOperationFailed(operation:path:reason:)``
    ///   when its lock file cannot be opened or locked.
    static func claim(_ location: ArchiveLocation) throws -> ArchiveLease {
        try owned.withLock { owned in
            guard !owned.contains(location.identity) else {
                throw PersistenceError.locationInUse(location: location.description, byAnotherProcess: false)
            }
            let descriptor = try location.lockFile.map { try lock($0, of: location) } ?? -1
            owned.insert(location.identity)
            return ArchiveLease(location, descriptor: descriptor)
        }
    }

    /// Gives `location` up: unlocks and closes its lock file's `descriptor` (-1: none).
    static func release(_ location: ArchiveLocation, closing descriptor: Int32) {
        owned.withLock { owned in
            if descriptor >= 0 {
                flock(descriptor, LOCK_UN)  // NB: not left to `close`, which a child's copy outlives
                close(descriptor)
            }
            owned.remove(location.identity)
        }
    }

    /// Opens (creating it if needed) and `flock`s the lock file; returns its descriptor.
    private static func lock(_ file: ArchiveLocation.LockFile, of location: ArchiveLocation) throws -> Int32 {
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, mode_t(file.mode & 0o777))
        guard descriptor >= 0 else { throw failure("open the lock file", file.path) }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            let error =
                code == EWOULDBLOCK
                ? PersistenceError.locationInUse(location: location.description, byAnotherProcess: true)
                : failure("lock the lock file", file.path)
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// The error for a failed system call, with `errno`'s message; call it right after the call.
    private static func failure(_ operation: String, _ path: String) -> PersistenceError {
        let code = errno
        return .fileOperationFailed(
            operation: operation, path: path, reason: "\(String(cString: strerror(code))) (errno \(code))")
    }
}
