import Foundation
import Testing

/// A gate threads wait at until it opens; no sleeping, no polling.
final class Gate: @unchecked Sendable {  // isOpen guarded by condition
    private let condition = NSCondition()
    private var isOpen = false

    init() {}

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    func wait(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
        expectMayBlock("Gate.wait()", fileID: fileID, filePath: filePath, line: line, column: column)
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }
}

/// Counts arrivals; `wait(for:)` returns once that many have arrived.
final class ArrivalCounter: @unchecked Sendable {  // arrivals guarded by condition
    private let condition = NSCondition()
    private var arrivals = 0

    init() {}

    func arrive() {
        condition.lock()
        arrivals += 1
        condition.broadcast()
        condition.unlock()
    }

    func wait(
        for count: Int, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) {
        expectMayBlock("ArrivalCounter.wait(for:)", fileID: fileID, filePath: filePath, line: line, column: column)
        condition.lock()
        while arrivals < count { condition.wait() }
        condition.unlock()
    }
}

/// Runs `body(index)` on `count` new threads that all start together, and waits for them all.
func runOnThreads(
    _ count: Int, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ body: @escaping @Sendable (Int) -> Void
) {
    expectMayBlock("runOnThreads", fileID: fileID, filePath: filePath, line: line, column: column)
    let ready = ArrivalCounter()
    let start = Gate()
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            ready.arrive()
            start.wait()
            body(index)
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    ready.wait(for: count)
    start.open()
    group.wait()
}

/// A test error with a readable tag.
struct TestError: Error, Equatable, Sendable, CustomStringConvertible {
    let tag: String

    init(_ tag: String) {
        self.tag = tag
    }

    var description: String { "TestError(\(tag))" }
}

/// An observer owner for weak-owner observers.
final class ObserverOwner: Sendable {
    init() {}
}

/// A class whose deallocation a test can watch through a weak reference.
final class Canary: Sendable {
    init() {}
}

/// Runs `body` on a new thread and waits for it, at most for the ``hangGuard``; `false`, with an issue
/// saying it hung, if it did not finish.
///
/// For tests of "never a deadlock": a regression fails the test instead of hanging the suite.
func finishesInTime(
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ body: @escaping @Sendable () -> Void
) -> Bool {
    expectMayBlock("finishesInTime", fileID: fileID, filePath: filePath, line: line, column: column)
    let finished = DispatchGroup()
    finished.runOnNewThread(body)
    guard finished.wait(timeout: .now() + hangGuard) == .success else {
        Issue.record(
            "hung: the body did not finish within \(hangGuardSeconds) s",
            sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return false
    }
    return true
}

/// Calls a closure when it deallocates.
final class DeinitProbe: Sendable {
    private let onDeinit: @Sendable () -> Void

    init(onDeinit: @escaping @Sendable () -> Void) {
        self.onDeinit = onDeinit
    }

    deinit { onDeinit() }
}

extension DispatchGroup {
    /// Runs `body` on a new thread as a member of the group: `wait()` returns once it has run.
    func runOnNewThread(_ body: @escaping @Sendable () -> Void) {
        enter()
        Thread {
            body()
            self.leave()
        }.start()
    }
}
