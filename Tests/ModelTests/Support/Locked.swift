import Foundation

/// A value that owns its lock: read and changed only inside ``withLock(_:)``.
final class Locked<Value>: @unchecked Sendable {  // `value` guarded by `lock`
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
