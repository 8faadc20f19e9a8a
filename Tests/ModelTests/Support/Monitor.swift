import Foundation

/// A value that owns its condition: changed inside ``withLock(_:)``, which wakes every waiter, and
/// awaited with ``wait(until:timeout:)`` by a thread that may block (never a task of the pool).
final class Monitor<Value>: @unchecked Sendable {  // `value` guarded by `condition`
    private let condition = NSCondition()
    private var value: Value
    /// How many times the value was changed.
    private var changes = 0

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        changes += 1
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Reads the value under the lock, without counting a change or waking a waiter.
    func withLockUnchanged<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body(value)
    }

    /// How many times the value was changed so far: a mark for ``waitForChange(since:timeout:)``.
    var mark: Int {
        condition.lock()
        defer { condition.unlock() }
        return changes
    }

    /// Blocks until the value changed after `mark` was read, or `timeout` seconds passed.
    func waitForChange(since mark: Int, timeout: TimeInterval) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while changes == mark, condition.wait(until: deadline) {}
    }

    /// Blocks until `isDone` holds of the value, re-checked at each change; `false` after `timeout` seconds.
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
