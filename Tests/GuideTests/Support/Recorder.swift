import Foundation

/// Collects values from any thread, in the order they arrive.
final class Recorder<Value: Sendable>: @unchecked Sendable {  // `stored` guarded by `lock`
    private let lock = NSLock()
    private var stored: [Value] = []

    func append(_ value: Value) {
        lock.withLock { stored.append(value) }
    }

    var values: [Value] {
        lock.withLock { stored }
    }
}
