import Foundation

/// Delivers persistence errors to ``Dispatcher/onPersistenceError``, or to standard error when it is not set.
final class PersistenceErrorReporter: @unchecked Sendable {  // `storedHandler` guarded by `lock`
    private let lock = Lock()
    private var storedHandler: (@Sendable (PersistenceError) -> Void)?

    var handler: (@Sendable (PersistenceError) -> Void)? {
        get { lock.withLock { storedHandler } }
        set { lock.withLock { storedHandler = newValue } }
    }

    func report(_ error: PersistenceError) {
        if let handler {
            handler(error)
        } else {
            FileHandle.standardError.write(Data("Fluxion: \(error)\n".utf8))
        }
    }
}
