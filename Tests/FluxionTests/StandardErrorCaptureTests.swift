import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The test support's capture of standard error, used by suites that run in parallel.
@Suite(.onThreadsOfItsOwn, .timeLimit(.minutes(10))) struct StandardErrorCaptureTests {
    /// The file that descriptor 2 refers to, as its device and inode.
    func standardErrorFile() -> [UInt64] {
        var status = stat()
        fstat(2, &status)
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }

    @Test func capturesOnTwoThreadsAtOnceEndAndGiveDescriptorTwoBack() throws {
        let before = standardErrorFile()
        let failures = LockedBox([String]())
        let done = DispatchGroup()
        for thread in 0..<2 {
            done.runOnNewThread {
                for round in 0..<200 {
                    do {
                        let text = try captureStandardError {
                            FileHandle.standardError.write(Data("\(thread).\(round)\n".utf8))
                        }
                        if !text.contains("\(thread).\(round)\n") {
                            failures.withValue { $0.append("\(thread).\(round): \(text)") }
                        }
                    } catch {
                        failures.withValue { $0.append("\(error)") }
                    }
                }
            }
        }
        // A hang guard, not a deadline: two overlapping captures used to leave a drain waiting for ever.
        #expect(done.wait(timeout: .now() + .seconds(300)) == .success, "hung: a capture's drain never ended")
        #expect(failures.value.isEmpty)
        #expect(standardErrorFile() == before, "descriptor 2 is standard error again")
    }
}
