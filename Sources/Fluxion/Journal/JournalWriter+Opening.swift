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

// Opening a journal file: a journal never destroys what is not its own. It creates the file where nothing
// is, or replaces an earlier journal; a directory, a symbolic link, a device or a file that is not a
// Fluxion journal is refused and left untouched.
extension JournalWriter {
    /// How much of an existing file is read to find its first line: a journal's header is far shorter.
    static let headerLimit = 64 * 1024

    /// Opens the file at `url` for writing a journal from its start, readable and writable by its owner only.
    ///
    /// - Returns: The open file, and whether it was created just now.
    /// - Throws: ``JournalError/notReplaceable(path:reason:)`` when something other than a journal is there;
    ///   ``JournalError/unreadableFile(path:reason:)`` when the file cannot be created or opened.
    static func openFile(at url: URL) throws -> (descriptor: Int32, isNew: Bool) {
        let path = url.path
        // NB: O_EXCL creates the file only where nothing is, not even a symbolic link to nothing.
        let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if created >= 0 { return (created, true) }
        guard errno == EEXIST else { throw JournalError.unreadableFile(path: path, reason: "it cannot be created") }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw JournalError.unreadableFile(path: path, reason: "it cannot be examined: \(reason())")
        }
        try checkIsFile(info.st_mode, path: path)
        // NB: O_NOFOLLOW and the checks on the open file: what was examined is what is replaced, even if the
        // path changed meanwhile.
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw JournalError.notReplaceable(path: path, reason: "it is a symbolic link") }
            throw JournalError.unreadableFile(path: path, reason: "it cannot be opened: \(reason())")
        }
        do {
            var opened = stat()
            guard fstat(descriptor, &opened) == 0 else {
                throw JournalError.unreadableFile(path: path, reason: "it cannot be examined: \(reason())")
            }
            try checkIsFile(opened.st_mode, path: path)
            guard isJournal(descriptor) else {
                throw JournalError.notReplaceable(path: path, reason: "it is not a Fluxion journal")
            }
            guard ftruncate(descriptor, 0) == 0, fchmod(descriptor, 0o600) == 0 else {
                throw JournalError.unreadableFile(path: path, reason: "it cannot be replaced: \(reason())")
            }
            return (descriptor, false)
        } catch {
            closeFile(descriptor)
            throw error
        }
    }

    /// Refuses anything but a regular file.
    private static func checkIsFile(_ mode: mode_t, path: String) throws {
        switch mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw JournalError.notReplaceable(path: path, reason: "it is a directory")
        case S_IFLNK: throw JournalError.notReplaceable(path: path, reason: "it is a symbolic link")
        default: throw JournalError.notReplaceable(path: path, reason: "it is not a regular file")
        }
    }

    /// Whether the open file starts with a Fluxion journal's header line (of any version).
    private static func isJournal(_ descriptor: Int32) -> Bool {
        var bytes = [UInt8](repeating: 0, count: headerLimit)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, headerLimit, 0) }
        guard count > 0 else { return false }
        let head = bytes[0..<count]
        let firstLine = head.firstIndex(of: UInt8(ascii: "\n")).map { head[..<$0] } ?? head
        guard let line = try? JournalLine.makeDecoder().decode(JournalLine.self, from: Data(firstLine)) else {
            return false
        }
        return line.kind == .header && line.format == JournalLine.format
    }
}
