import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` with file descriptor 2 redirected into a pipe, and returns what was written to it meanwhile.
///
/// Whatever any thread writes to standard error while `body` runs is caught,
/// so keep `body` short; the caught text is written back to standard error
/// afterwards, so nothing is lost. A thread drains the pipe meanwhile, so a
/// full pipe never blocks a writer. Captures run one at a time: two that
/// overlapped would each restore the descriptor the other saved, and leave
/// descriptor 2 holding a pipe's write end, so its drain would never end.
func captureStandardError(_ body: () throws -> Void) throws -> String {
    try standardErrorRedirection.withLock { try redirectingStandardError(body) }
}

/// Held for the whole of a capture: descriptor 2 is one per process.
private let standardErrorRedirection = NSLock()

private func redirectingStandardError(_ body: () throws -> Void) throws -> String {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw TestError("pipe failed: errno \(errno)") }
    let (reader, writer) = (ends[0], ends[1])
    let captured = LockedBox(Data())
    let drained = DispatchGroup()
    drained.runOnNewThread {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = read(reader, &buffer, buffer.count)
            guard count > 0 else { break }
            captured.withValue { $0.append(contentsOf: buffer[0..<count]) }
        }
        close(reader)
    }
    let saved = dup(2)
    guard saved >= 0, dup2(writer, 2) >= 0 else {
        close(writer)
        drained.wait()
        throw TestError("dup failed: errno \(errno)")
    }
    let outcome = Result { try body() }
    dup2(saved, 2)
    close(saved)
    close(writer)  // NB: with fd 2 restored, this was the pipe's last write end: the drain ends
    drained.wait()
    let data = captured.value
    FileHandle.standardError.write(data)
    try outcome.get()
    return String(decoding: data, as: UTF8.self)
}
