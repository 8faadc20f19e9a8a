import Foundation

/// Collects values from any thread, in the order they arrive.
final class Recorder<T: Sendable>: @unchecked Sendable {  // values guarded by lock
    private let lock = NSLock()
    private var storage: [T] = []

    init() {}

    func append(_ value: T) {
        lock.withLock { storage.append(value) }
    }

    var values: [T] {
        lock.withLock { storage }
    }

    var count: Int {
        lock.withLock { storage.count }
    }

    func removeAll() {
        lock.withLock { storage.removeAll() }
    }
}

/// One value that any thread can read and replace.
final class LockedBox<T: Sendable>: @unchecked Sendable {  // value guarded by lock
    private let lock = NSLock()
    private var stored: T

    init(_ value: T) {
        stored = value
    }

    var value: T {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value under the lock and returns what `body` returns.
    func withValue<R>(_ body: (inout T) throws -> R) rethrows -> R {
        try lock.withLock { try body(&stored) }
    }
}
