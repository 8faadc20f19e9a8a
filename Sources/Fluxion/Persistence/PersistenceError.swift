/// The errors of store persistence; each message names the archive and what was wrong.
///
/// Registration throws ``invalidKey(_:reason:)`` and
/// ``invalidConfiguration(key:reason:)``. Every other case is *reported*, not
/// thrown: archives are restored and saved away from your call sites, so
/// these errors reach ``Dispatcher/onPersistenceError`` (or standard error
/// when no hook is set). After a reported error the store keeps working: a
/// store whose archive cannot be restored starts from its initial state, and
/// a failed save leaves the state in memory as it was and is retried by the
/// next save.
///
/// A storage names where an archive went aside in `setAsideAs`; `nil` means
/// setting it aside failed too (a ``setAsideFailed(key:reason:)`` follows).
public enum PersistenceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key cannot name an archive; see ``Persistence/key`` for the rule.
    case invalidKey(String, reason: String)

    /// The configuration for `key` cannot work, for example a negative debounce interval.
    case invalidConfiguration(key: String, reason: String)

    /// The storage could not read the archive; it was set aside, and the store starts from its initial state.
    case loadFailed(key: String, setAsideAs: String?, reason: String)

    /// The archive is not JSON, or not an archive of this state type; it was
    /// set aside, and the store starts from its initial state.
    case corruptArchive(key: String, setAsideAs: String?, reason: String)

    /// The archive was written by a newer schema version than this code
    /// supports; it was set aside, and the store starts from its initial state.
    case newerVersion(key: String, found: Int, supported: Int, setAsideAs: String?)

    /// An archive of an older schema version could not be brought up to date;
    /// it was set aside, and the store starts from its initial state.
    case migrationFailed(key: String, from: Int, to: Int, setAsideAs: String?, reason: String)

    /// A bad archive could not be set aside; the storage still holds it under its key.
    case setAsideFailed(key: String, reason: String)

    /// The state could not be encoded or written; the state in memory is
    /// unchanged, and the next save (the next change or ``Dispatcher/flush()``) retries.
    case saveFailed(key: String, reason: String)

    /// A file operation of ``FileStateStorage`` failed.
    case fileOperationFailed(operation: String, path: String, reason: String)

    /// A human-readable message naming the archive and what was wrong.
    public var description: String {
        switch self {
        case .invalidKey(let key, let reason):
            "Invalid persistence key '\(key)': \(reason)."
        case .invalidConfiguration(let key, let reason):
            "Invalid persistence configuration for '\(key)': \(reason)."
        case .loadFailed(let key, let setAsideAs, let reason):
            "Could not read the archive '\(key)': \(reason). \(Self.outcome(setAsideAs))"
        case .corruptArchive(let key, let setAsideAs, let reason):
            "The archive '\(key)' is corrupt: \(reason). \(Self.outcome(setAsideAs))"
        case .newerVersion(let key, let found, let supported, let setAsideAs):
            "The archive '\(key)' has schema version \(found), newer than the supported version \(supported). "
                + Self.outcome(setAsideAs)
        case .migrationFailed(let key, let from, let to, let setAsideAs, let reason):
            "Could not migrate the archive '\(key)' from version \(from) to \(to): \(reason). "
                + Self.outcome(setAsideAs)
        case .setAsideFailed(let key, let reason):
            "Could not set the bad archive '\(key)' aside: \(reason)."
        case .saveFailed(let key, let reason):
            "Could not save the archive '\(key)': \(reason). The next save retries."
        case .fileOperationFailed(let operation, let path, let reason):
            "Could not \(operation) \(path): \(reason)"
        }
    }

    private static func outcome(_ setAsideAs: String?) -> String {
        if let setAsideAs {
            "It was kept aside as \(setAsideAs); the store starts from its initial state."
        } else {
            "The store starts from its initial state."
        }
    }
}
