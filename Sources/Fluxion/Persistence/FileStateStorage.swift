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
/// The directory is created on the first save if it does not exist. One
/// process at a time should use a directory.
public struct FileStateStorage: StateStorage {
    /// The directory the archives live in.
    public let directory: URL
    /// The system calls it writes, flushes and renames through.
    let calls: FileSystemCalls

    /// Creates a storage that keeps its archives in `directory`.
    public init(directory: URL) {
        self.init(directory: directory, calls: .system)
    }

    /// Creates a storage that writes, flushes and renames through `calls`: for tests.
    init(directory: URL, calls: FileSystemCalls) {
        self.directory = directory
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
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("create", temporaryPath) }
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

    private func createDirectoryIfNeeded(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return }
            throw PersistenceError.fileOperationFailed(
                operation: "use the directory", path: path, reason: "it exists and is not a directory")
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw PersistenceError.fileOperationFailed(
                operation: "create the directory", path: path, reason: error.localizedDescription)
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
    private func failure(_ operation: String, _ path: String) -> PersistenceError {
        let code = errno
        return .fileOperationFailed(
            operation: operation, path: path, reason: "\(String(cString: strerror(code))) (errno \(code))")
    }
}
