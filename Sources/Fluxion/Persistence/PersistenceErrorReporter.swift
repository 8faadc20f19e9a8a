import Foundation

/// Delivers persistence errors to ``Dispatcher/onPersistenceError``, or to standard error when it is not set.
final class PersistenceErrorReporter: @unchecked Sendable {  // `storedHandler` guarded by `lock`
    private let lock = Lock()
    private var storedHandler: (@Sendable (PersistenceError) -> Void)?

    var handler: (@Sendable (PersistenceError) -> Void)? {
        get { lock.withLock { storedHandler } }
        set {
            var handler = newValue
            lock.withLock { swap(&handler, &storedHandler) }
            // NB: the replaced closure is released here, outside the lock: its captures may have a deinit.
        }
    }

    func report(_ error: PersistenceError) {
        if let handler {
            handler(error)
        } else {
            FileHandle.standardError.write(Data("Fluxion: \(error)\n".utf8))
        }
    }
}
