import Foundation

/// Values appended from any thread, read back in order.
final class Recorded<Value: Sendable>: @unchecked Sendable {  // `storage` locked by `lock`
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) {
        lock.withLock { storage.append(value) }
    }

    var values: [Value] {
        lock.withLock { storage }
    }
}
