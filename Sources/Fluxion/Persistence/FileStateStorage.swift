import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A storage that keeps each archive in its own JSON file, `<key>.json`, in one directory.
///
/// ```swift
/// let directory = URL.applicationSupportDirectory.appending(path: "State")
/// let storage = FileStateStorage(directory: directory)
/// try dispatcher.register(TodoStore.self, persistence: Persistence(storage: storage, key: "todos"))
/// ```
///
/// Saving is atomic: the new archive is written to a temporary file in the
/// same directory (`.<key>.json.tmp-<UUID>`), flushed to disk, then renamed
/// over `<key>.json`, and the directory is flushed too. A crash at any point
/// leaves the old archive or the new one, never a torn file. Loading an
/// archive removes temporary files a crash left behind for that key.
///
/// One live dispatcher at a time persists to a directory, in this process
/// or any other: the owner holds an advisory lock (`flock`) on the file
/// `.fluxion.lock` in the directory, and a second dispatcher that registers a
/// store on it is refused with ``PersistenceError/locationInUse(location:byAnotherProcess:)``
/// until the first releases it — in ``Dispatcher/shutdown()``, when it is
/// freed, or when its process ends or crashes. Two spellings of one directory
/// (a symbolic link, a `..`) are one directory. The directory, and any
/// missing parent of it, is created when a store is registered on it, for
/// the lock file (or by the first direct ``save(_:key:)``). See
/// <doc:PersistingState#One-live-dispatcher-per-location>.
///
/// The files are private by default: archives and their temporary files are
/// created readable and writable by the owner only (`0600`), and the
/// directories the storage creates are `0700`; an archive written by a save
/// replaces the old file, mode included. A directory that exists keeps its
/// mode. Pass other ``Permissions`` to share them.
public struct FileStateStorage: StateStorage {
    /// The directory the archives live in.
    public let directory: URL
    /// The modes of the files and directories the storage creates.
    public let permissions: Permissions
    /// The system calls it writes, flushes and renames through.
    let calls: FileSystemCalls

    /// Creates a storage that keeps its archives in `directory`.
    ///
    /// - Parameters:
    ///   - directory: Where the archives live; created on the first save if needed.
    ///   - permissions: The modes of the files and directories the storage
    ///   creates; ``Permissions/ownerOnly`` (`0600` and `0700`) by default.
    public init(directory: URL, permissions: Permissions = .ownerOnly) {
        self.init(directory: directory, permissions: permissions, calls: .system)
    }

    /// Creates a storage that writes, flushes and renames through `calls`: for tests.
    init(directory: URL, permissions: Permissions = .ownerOnly, calls: FileSystemCalls) {
        self.directory = directory
        self.permissions = permissions
        self.calls = calls
    }

    /// The file that holds the archive of `key`.
    ///
    /// - Throws: ``PersistenceError/invalidKey(_:reason:)`` when `key` cannot name a file.
    public func fileURL(forKey key: String) throws -> URL {
        try validateArchiveKey(key)
        return directory.appendingPathComponent(key + ".json", isDirectory: false)
    }

    /// The contents of `<key>.json`, or `nil` when the file does not exist.
    ///
    /// Also removes the temporary files of `key` that an interrupted save left behind.
    ///
    /// - Throws: ``PersistenceError/invalidKey(_:reason:)``, or
    ///   ``PersistenceError/fileOperationFailed(operation:path:reason:)`` when
    ///   the file exists but cannot be read.
    public func load(key: String) throws -> Data? {
        let path = try fileURL(forKey: key).path
        removeTemporaryFiles(of: key)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            // NB: ENOTDIR: a file stands where the directory would be, so there is no archive either.
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw failure("open", path)
        }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read", path)
            }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// Replaces `<key>.json` with `data` atomically.
    ///
    /// - Throws: ``PersistenceError/invalidKey(_:reason:)``, or
    ///   ``PersistenceError/fileOperationFailed(operation:path:reason:)``
    ///   naming the step that failed; the old archive is then untouched.
    public func save(_ data: Data, key: String) throws {
        let path = try fileURL(forKey: key).path
        let directoryPath = directory.path
        try createDirectoryIfNeeded(directoryPath)
        let temporaryPath = directory.appendingPathComponent(temporaryPrefix(of: key) + UUID().uuidString).path
        let mode = permissions.fileMode
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw failure("create", temporaryPath) }
        // NB: `open` applies the umask, which can only narrow the mode; this gives exactly the mode
        // asked for. A file system that keeps no permissions refuses, and has its own.
        _ = fchmod(descriptor, mode)
        var isRenamed = false
        defer { if !isRenamed { unlink(temporaryPath) } }
        do {
            defer { close(descriptor) }
            try writeAll(data, to: descriptor, path: temporaryPath)
            guard synchronize(descriptor) else { throw failure("flush to disk", temporaryPath) }
        }
        guard calls.rename(temporaryPath, path) == 0 else { throw failure("rename over", path) }
        isRenamed = true
        // NB: flushing the directory makes the rename itself durable; the
        // archive is already whole either way, so a failure here is not fatal.
        let directoryDescriptor = open(directoryPath, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = synchronize(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Renames `<key>.json` to `<key>.json<suffix>`, never replacing another file.
    ///
    /// When that name is taken, `-2`, `-3`, … is appended.
    ///
    /// - Returns: The new file's path.
    /// - Throws: ``PersistenceError/fileOperationFailed(operation:path:reason:)``.
    public func setAside(key: String, suffix: String) throws -> String {
        let path = try fileURL(forKey: key).path
        var asidePath = path + suffix
        var attempt = 1
        while access(asidePath, F_OK) == 0 {
            attempt += 1
            asidePath = path + suffix + "-\(attempt)"
        }
        guard calls.rename(path, asidePath) == 0 else { throw failure("rename aside", path) }
        return asidePath
    }

    private func temporaryPrefix(of key: String) -> String {
        "." + key + ".json.tmp-"
    }

    private func removeTemporaryFiles(of key: String) {
        let prefix = temporaryPrefix(of: key)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    /// Creates the directory at `path` and its missing parents, each with ``Permissions/directory``.
    func createDirectoryIfNeeded(_ path: String) throws {
        var missing: [String] = []
        var candidate = URL(fileURLWithPath: path)
        while true {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) {
                if isDirectory.boolValue { break }
                throw PersistenceError.fileOperationFailed(
                    operation: "use the directory", path: candidate.path, reason: "it exists and is not a directory")
            }
            missing.append(candidate.path)
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path { break }
            candidate = parent
        }
        let mode = permissions.directoryMode
        for directoryPath in missing.reversed() {
            if mkdir(directoryPath, mode) == 0 {
                _ = chmod(directoryPath, mode)  // NB: as for files: exactly the mode, whatever the umask
                continue
            }
            let failed = failure("create the directory", directoryPath)
            let code = errno
            var isDirectory: ObjCBool = false
            // NB: another process may have made it meanwhile; then it keeps the mode it was given.
            guard code == EEXIST, FileManager.default.fileExists(atPath: directoryPath, isDirectory: &isDirectory),
                isDirectory.boolValue
            else { throw failed }
        }
    }

    private func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let count = calls.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw failure("write", path)
                }
                offset += count
            }
        }
    }

    /// Flushes a file to the disk itself, through ``FileSystemCalls/fsync``.
    private func synchronize(_ descriptor: Int32) -> Bool {
        while calls.fsync(descriptor) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }

    /// The error for a failed system call, with `errno`'s message; call it right after the call.
    func failure(_ operation: String, _ path: String) -> PersistenceError {
        let code = errno
        return .fileOperationFailed(
            operation: operation, path: path, reason: "\(String(cString: strerror(code))) (errno \(code))")
    }
}
