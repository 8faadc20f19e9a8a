import Foundation

@testable import Fluxion

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file or directory as the file system knows it, whatever its name: stable across a rename.
struct FileNode: Equatable, Sendable, CustomStringConvertible {
    let isDirectory: Bool
    let inode: UInt64

    /// The node at `path`, or `nil` when nothing is there.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The node an open descriptor refers to.
    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        isDirectory = info.st_mode & S_IFMT == S_IFDIR
        inode = UInt64(info.st_ino)
    }

    var description: String { (isDirectory ? "directory #" : "file #") + String(inode) }
}

/// One call a ``FileStateStorage`` made through its ``FileSystemCalls``.
enum FileCall: Equatable, Sendable, CustomStringConvertible {
    case write(FileNode?)
    case fsync(FileNode?)
    /// The node that was at the source path, renamed to the destination path.
    case rename(FileNode?, to: String)

    /// The kinds of call, to make one kind fail.
    enum Kind: Sendable {
        case write
        case fsync
        case rename
    }

    var description: String {
        func named(_ node: FileNode?) -> String { node?.description ?? "nothing" }
        return switch self {
        case .write(let node): "write(\(named(node)))"
        case .fsync(let node): "fsync(\(named(node)))"
        case .rename(let node, let destination): "rename(\(named(node)), to: \(destination))"
        }
    }

    var kind: Kind {
        switch self {
        case .write: .write
        case .fsync: .fsync
        case .rename: .rename
        }
    }
}

/// File system calls that go to the system and record what they did, or fail on command.
///
/// Pass ``calls`` to `FileStateStorage(directory:calls:)`.
final class ScriptedFileSystemCalls: @unchecked Sendable {  // vars guarded by lock
    private let lock = NSLock()
    private var log: [FileCall] = []
    private var failure: (kind: FileCall.Kind, code: Int32)?

    init() {}

    /// Every call made, failed ones included, in order.
    var recorded: [FileCall] {
        lock.withLock { log }
    }

    /// Makes every later call of `kind` fail with `errno` set to `code`, without reaching the system.
    func fail(_ kind: FileCall.Kind, errno code: Int32) {
        lock.withLock { failure = (kind, code) }
    }

    /// The calls to give a storage.
    var calls: FileSystemCalls {
        let system = FileSystemCalls.system
        return FileSystemCalls(
            write: { [self] descriptor, bytes, count in
                perform(.write(FileNode(descriptor: descriptor))) { system.write(descriptor, bytes, count) }
            },
            fsync: { [self] descriptor in
                perform(.fsync(FileNode(descriptor: descriptor))) { system.fsync(descriptor) }
            },
            rename: { [self] source, destination in
                perform(.rename(FileNode(path: source), to: destination)) { system.rename(source, destination) }
            }
        )
    }

    /// Records `call`, then fails it or runs `system`.
    private func perform<Result: BinaryInteger>(_ call: FileCall, system: () -> Result) -> Result {
        let failure = lock.withLock {
            log.append(call)
            return self.failure?.kind == call.kind ? self.failure?.code : nil
        }
        guard let failure else { return system() }
        errno = failure
        return -1
    }
}
