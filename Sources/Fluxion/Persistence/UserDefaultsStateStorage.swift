import Foundation

/// A storage that keeps each archive as a `Data` value in `UserDefaults`.
///
/// Suits small states (settings, a session). Each archive is stored under
/// the defaults key `prefix + key`:
///
/// ```swift
/// let storage = UserDefaultsStateStorage()  // .standard, keys "Fluxion.<key>"
/// try dispatcher.register(SettingsStore.self, persistence: Persistence(storage: storage, key: "settings"))
/// ```
///
/// `UserDefaults` writes its values to disk on its own schedule; on Linux,
/// where it does not, ``save(_:key:)`` asks it to synchronize.
///
/// One live dispatcher of a process at a time persists to one defaults
/// object with one prefix (two storages over `.standard` and `"Fluxion."`
/// are one location): a second dispatcher that registers a store there is
/// refused with ``PersistenceError/locationInUse(location:byAnotherProcess:)``
/// until the first is shut down (``Dispatcher/shutdown()``) or freed. Other
/// processes sharing the defaults suite are not checked. See
/// <doc:PersistingState#One-live-dispatcher-per-location>.
public final class UserDefaultsStateStorage: StateStorage, @unchecked Sendable {  // `defaults` used under `lock`
    // NB: `UserDefaults` is thread-safe but not `Sendable` in every Foundation; the
    // lock makes this storage's own calls safe to make from any thread.
    private let lock = Lock()
    private let defaults: UserDefaults

    /// What each archive's defaults key starts with.
    public let prefix: String

    /// Creates a storage in `defaults` whose defaults keys start with `prefix`.
    ///
    /// - Parameters:
    ///   - defaults: The defaults database; `.standard` by default.
    ///   - prefix: The start of every defaults key; `"Fluxion."` by default.
    public init(defaults: UserDefaults = .standard, prefix: String = "Fluxion.") {
        self.defaults = defaults
        self.prefix = prefix
    }

    /// The archive under `key`, or `nil` when there is none.
    ///
    /// - Throws: ``PersistenceError/fileOperationFailed(operation:path:reason:)``
    ///   when the defaults value is not `Data`.
    public func load(key: String) throws -> Data? {
        guard let value = lock.withLock({ defaults.object(forKey: prefix + key) }) else { return nil }
        guard let data = value as? Data else {
            throw PersistenceError.fileOperationFailed(
                operation: "read the defaults value",
                path: prefix + key,
                reason: "it is a \(typeName(type(of: value))), not Data"
            )
        }
        return data
    }

    /// Stores `data` under `key`.
    public func save(_ data: Data, key: String) {
        lock.withLock {
            defaults.set(data, forKey: prefix + key)
            #if !canImport(Darwin)
            _ = defaults.synchronize()
            #endif
        }
    }

    /// Moves the value under `key` to `key + suffix`.
    ///
    /// - Returns: The new defaults key.
    public func setAside(key: String, suffix: String) -> String {
        let asideKey = prefix + key + suffix
        lock.withLock {
            if let value = defaults.object(forKey: prefix + key) {
                defaults.set(value, forKey: asideKey)
                defaults.removeObject(forKey: prefix + key)
            }
        }
        return asideKey
    }
}

extension UserDefaultsStateStorage: LocatedStateStorage {
    /// The defaults object and the key prefix: two storages over one object with one prefix are one location.
    func archiveLocation() -> ArchiveLocation {
        let suite = defaults === UserDefaults.standard ? "UserDefaults.standard" : "a UserDefaults suite"
        return ArchiveLocation(
            .defaults(ObjectIdentifier(defaults), prefix: prefix),
            description: "the defaults keys starting with \"\(prefix)\" in \(suite)", anchor: self)
    }
}
