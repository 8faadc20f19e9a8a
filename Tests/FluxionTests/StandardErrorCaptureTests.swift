import Foundation
import Testing

/// The test support's capture of standard error, used by suites that run in parallel.
@Suite(.onThreadsOfItsOwn, .timeLimit(.minutes(10))) struct StandardErrorCaptureTests {
    @Test func capturesOnTwoThreadsAtOnceEachEndWithTheirOwnText() throws {
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
    }
}
