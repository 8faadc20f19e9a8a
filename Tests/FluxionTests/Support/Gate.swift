import Foundation

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

    func wait() {
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

    func wait(for count: Int) {
        condition.lock()
        while arrivals < count { condition.wait() }
        condition.unlock()
    }
}

/// Runs `body(index)` on `count` new threads that all start together, and waits for them all.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
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

/// Runs `body` on a new thread and waits for it at most `seconds`; `false` if it did not finish.
///
/// For tests of "never a deadlock": a regression fails the test instead of hanging the suite.
func finishesInTime(seconds: Int = 10, _ body: @escaping @Sendable () -> Void) -> Bool {
    let finished = DispatchGroup()
    finished.runOnNewThread(body)
    return finished.wait(timeout: .now() + .seconds(seconds)) == .success
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
