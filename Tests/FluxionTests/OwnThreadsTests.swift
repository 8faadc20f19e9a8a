import Foundation
import Testing

/// The support for tests that block (issue 44): `.onThreadsOfItsOwn` moves a test off Swift's global executor,
/// and a wait of the support made on that executor is an issue.
@Suite struct OwnThreadsTests {
    @Test(.onThreadsOfItsOwn) func aTestOnThreadsOfItsOwnMayBlock() async {
        #expect(isOnThreadOfItsOwn())
        let gate = Gate()
        gate.open()
        gate.wait()  // NB: no issue

        async let child = isOnThreadOfItsOwn()
        #expect(await child, "a child task prefers its parent's executor")
        await Task.yield()
        #expect(isOnThreadOfItsOwn(), "after a suspension too")
    }

    @Test(.onThreadsOfItsOwn) func aSynchronousTestOnThreadsOfItsOwnRunsThere() {
        #expect(isOnThreadOfItsOwn())
        runOnThreads(2) { _ in }  // NB: no issue
    }

    @Test func aWaitOnTheGlobalExecutorIsAnIssue() {
        #expect(!isOnThreadOfItsOwn())
        withKnownIssue {
            let arrivals = ArrivalCounter()
            arrivals.arrive()
            arrivals.wait(for: 1)
        } matching: { issue in
            "\(issue)".contains("ArrivalCounter.wait(for:) blocks a thread of Swift's global executor")
        }
    }

    @Test func aWaitOnAThreadOfItsOwnIsNone() async {
        let gate = Gate()
        gate.open()
        await onNewThread { gate.wait() }
    }
}
