import Foundation

/// A storage that keeps archives in memory, for tests and previews.
///
/// ```swift
/// let storage = InMemoryStateStorage()
/// try dispatcher.register(TodoStore.self, persistence: Persistence(storage: storage, key: "todos"))
/// ```
///
/// Instances are reference types: keep one and pass it to a second dispatcher
/// to test restoring what the first one saved. One live dispatcher at a time
/// persists to an instance, so shut the first down (``Dispatcher/shutdown()``,
/// which saves) or let it go before the second registers: while the first
/// lives, the second's registration throws
/// ``PersistenceError/locationInUse(location:byAnotherProcess:)``. Another
/// instance is another location, even with the same archives.
public final class InMemoryStateStorage: StateStorage, @unchecked Sendable {  // `storedArchives` guarded by `lock`
    private let lock = Lock()
    private var storedArchives: [String: Data]

    /// Creates a storage holding `archives`, keyed as ``Persistence/key``; empty by default.
    public init(_ archives: [String: Data] = [:]) {
        storedArchives = archives
    }

    /// Every archive held now, by key; set-aside archives included.
    public var archives: [String: Data] {
        lock.withLock { storedArchives }
    }

    /// The archive under `key`, or `nil`.
    public func load(key: String) -> Data? {
        lock.withLock { storedArchives[key] }
    }

    /// Stores `data` under `key`.
    public func save(_ data: Data, key: String) {
        lock.withLock { storedArchives[key] = data }
    }

    /// Moves the archive under `key` to `key + suffix`.
    ///
    /// - Returns: The new key.
    public func setAside(key: String, suffix: String) -> String {
        lock.withLock {
            let asideKey = key + suffix
            storedArchives[asideKey] = storedArchives.removeValue(forKey: key)
            return asideKey
        }
    }
}

extension InMemoryStateStorage: LocatedStateStorage {
    /// This instance: another instance is another location, even with the same archives.
    func archiveLocation() -> ArchiveLocation {
        ArchiveLocation(
            .memory(ObjectIdentifier(self)),
            description: "the InMemoryStateStorage at \(Unmanaged.passUnretained(self).toOpaque())", anchor: self)
    }
}
