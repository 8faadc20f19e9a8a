import Foundation

/// Where archived store states live: a place that maps keys to bytes.
///
/// Fluxion comes with ``FileStateStorage`` (one JSON file per key),
/// ``UserDefaultsStateStorage`` and ``InMemoryStateStorage`` (for tests).
/// Write your own for a keychain, a database or a remote service:
///
/// ```swift
/// struct KeychainStorage: StateStorage {
///     func load(key: String) throws -> Data? { try Keychain.read(key) }
///     func save(_ data: Data, key: String) throws { try Keychain.write(data, key) }
/// }
/// ```
///
/// Fluxion calls a storage from one thread at a time for a given key, but
/// different keys may be used from different threads at once. A storage must
/// not call back into the dispatcher (dispatch or flush).
///
/// The storages Fluxion comes with belong to one live dispatcher at a time
/// (see <doc:PersistingState#One-live-dispatcher-per-location>); a storage
/// of your own is not checked: keep two live dispatchers from persisting to
/// the same place yourself.
public protocol StateStorage: Sendable {
    /// The archive stored under `key`, or `nil` when there is none.
    ///
    /// - Throws: An error when an archive may exist but cannot be read; the
    ///   store then starts from its initial state and the archive is set aside.
    func load(key: String) throws -> Data?

    /// Stores `data` under `key`, replacing any archive there.
    ///
    /// A storage should make the replacement atomic: after a crash, `key`
    /// holds the old archive or the new one, never a mix.
    func save(_ data: Data, key: String) throws

    /// Keeps the archive under `key` aside, under a name that ends with `suffix`, so the next save does not replace it.
    ///
    /// Fluxion calls it for an archive it cannot restore, with a suffix such
    /// as `.corrupt-20250102T030405.678Z`. The default implementation copies
    /// the archive to the key `key + suffix` and leaves the original in place
    /// for the next save to replace.
    ///
    /// - Returns: Where the archive now is, for error messages: a key or a path.
    func setAside(key: String, suffix: String) throws -> String
}

extension StateStorage {
    /// Copies the archive under `key` to the key `key + suffix`.
    public func setAside(key: String, suffix: String) throws -> String {
        let asideKey = key + suffix
        if let data = try load(key: key) {
            try save(data, key: asideKey)
        }
        return asideKey
    }
}
