/// A value that only its lock's holder can touch: "guarded by" as a type, not a comment.
///
/// The value is handed out only inside ``withLock(_:)``, as `inout`; a thread
/// that must wait for another's change waits with ``withLockWaiting(until:)``,
/// whose body is asked again after each ``Lock/broadcast()``. Exclusivity is
/// checked by the lock, not at run time, in this one place.
package final class Guarded<Value>: @unchecked Sendable {  // `value` is touched only with `lock` held
    let lock: Lock
    // unchecked: W1 +267, W13 +387 instructions/dispatch checked (callgrind)
    @exclusivity(unchecked) private var value: Value

    package init(_ value: Value, waitable: Bool = false) {
        self.value = value
        lock = Lock(waitable: waitable)
    }

    /// Runs `body` on the value with the lock held.
    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// Runs `body` with the lock held until it returns a result, waiting for a broadcast after each `nil`.
    ///
    /// NB: the value is not borrowed while waiting: other threads change it in between.
    package func withLockWaiting<Result>(until body: (inout Value) throws -> Result?) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let result = try body(&value) { return result }
            lock.wait()
        }
    }

    /// Wakes the threads waiting in ``withLockWaiting(until:)``; call from inside ``withLock(_:)``.
    package func broadcast() {
        lock.broadcast()
    }
}
