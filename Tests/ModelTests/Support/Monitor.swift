import Foundation

/// A value that owns its condition: changed inside ``withLock(_:)``, which wakes every waiter, and
/// awaited with ``wait(until:timeout:)`` by a thread that may block (never a task of Swift's global executor).
final class Monitor<Value>: @unchecked Sendable {  // `value` guarded by `condition`
    private let condition = NSCondition()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Reads the value under the lock, without waking a waiter.
    func withLockUnchanged<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body(value)
    }

    /// Blocks until `isDone` holds of the value, re-checked under the lock at each change; `false` after
    /// `timeout` seconds (a hang guard: see ``HangGuard``).
    func wait(until isDone: (Value) -> Bool, timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !isDone(value) {
            if !condition.wait(until: deadline) { return isDone(value) }
        }
        return true
    }
}
