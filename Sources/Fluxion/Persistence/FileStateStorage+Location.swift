#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

extension FileStateStorage: LocatedStateStorage {
    /// The file in the directory that a process owning it holds a `flock` on: `.fluxion.lock`.
    ///
    /// It is never an archive's file (a key cannot start with `.`), and it
    /// stays in the directory once released: removing a lock file another
    /// process may be opening would let two processes lock two files.
    static let lockFileName = ".fluxion.lock"

    /// The directory by its canonical path, with its lock file; creates the directory (and missing parents).
    ///
    /// - Throws: ``PersistenceError/fileOperationFailed(operation:path:reason:)`` when the directory
    ///   cannot be created or resolved.
    func archiveLocation() throws -> ArchiveLocation {
        try createDirectoryIfNeeded(directory.path)
        guard let resolved = realpath(directory.path, nil) else {
            throw failure("resolve the directory", directory.path)
        }
        defer { free(resolved) }
        let path = String(cString: resolved)
        let lockFile = ArchiveLocation.LockFile(
            path: path.hasSuffix("/") ? path + Self.lockFileName : path + "/" + Self.lockFileName,
            mode: permissions.file)
        return ArchiveLocation(.directory(path), description: "the directory \(path)", lockFile: lockFile)
    }
}
