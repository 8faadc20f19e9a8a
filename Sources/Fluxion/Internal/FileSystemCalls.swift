#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The system calls through which ``FileStateStorage`` writes, flushes and renames its files.
///
/// A seam for tests, which cannot otherwise see a flush that is missing or
/// one that fails: a test passes its own calls to
/// `FileStateStorage(directory:calls:)` to record them or to make one fail.
/// Every call keeps its C function's contract: on failure it returns -1 and
/// sets `errno`.
struct FileSystemCalls: Sendable {
    /// `write(2)`: writes up to `count` bytes from `bytes`, and returns how many it wrote.
    var write: @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int
    /// Flushes a file to the disk itself: `fcntl(F_FULLFSYNC)` where it exists (Apple platforms), else `fsync(2)`.
    var fsync: @Sendable (_ descriptor: Int32) -> Int32
    /// `rename(2)`: replaces the file at `destination` with the one at `source`.
    var rename: @Sendable (_ source: String, _ destination: String) -> Int32

    /// The operating system's calls.
    static let system = FileSystemCalls(write: systemWrite, fsync: systemFlush, rename: systemRename)
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func systemFlush(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
    // NB: plain fsync on Apple platforms leaves the data in the drive's cache.
    if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
    #endif
    return fsync(descriptor)
}

private func systemRename(_ source: String, _ destination: String) -> Int32 {
    rename(source, destination)
}
