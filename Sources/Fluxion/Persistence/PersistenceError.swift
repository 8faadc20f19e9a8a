/// The errors of store persistence; each message names the archive and what was wrong.
///
/// Registration throws ``invalidKey(_:reason:)``,
/// ``invalidConfiguration(key:reason:)`` and
/// ``locationInUse(location:byAnotherProcess:)`` (and, for a directory it
/// cannot create or lock, ``fileOperationFailed(operation:path:reason:)``).
/// Every other case is *reported*, not
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

    /// Another live dispatcher persists to `location`: the store is not registered.
    ///
    /// One live dispatcher at a time persists to a location — a
    /// ``FileStateStorage`` directory, a ``UserDefaultsStateStorage``'s
    /// defaults and key prefix, an ``InMemoryStateStorage`` instance — so that
    /// two never save over each other's archives. `byAnotherProcess` says
    /// whether the owner is another process (which holds the directory's lock
    /// file) rather than a dispatcher of this one. To release the location,
    /// call ``Dispatcher/shutdown()`` on the dispatcher that owns it, or let go
    /// of that dispatcher: it releases its locations when it is freed, which
    /// is once its running tasks have ended too. A process that ends, or
    /// crashes, releases them. Then register again.
    case locationInUse(location: String, byAnotherProcess: Bool)

    /// The dispatcher released the archive's location, in ``Dispatcher/shutdown()`` or as it was freed:
    /// the archive was neither written nor read, and the store's state stays in memory only.
    ///
    /// Reported for a change made after `shutdown()`, or a store first read
    /// after it: another dispatcher may own the location by then.
    case locationReleased(key: String, location: String)

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
        case .locationInUse(let location, false):
            "Another live dispatcher of this process persists to \(location): one dispatcher at a time may. "
                + "Release it first: call `await shutdown()` on that dispatcher, or let go of it "
                + "(it releases the location when it is freed, once its running tasks have ended)."
        case .locationInUse(let location, true):
            "Another process persists to \(location) (it holds its lock file): one dispatcher at a time may. "
                + "Release it first: call `await shutdown()` on that process's dispatcher, let go of it, "
                + "or end that process."
        case .locationReleased(let key, let location):
            "Left the archive '\(key)' alone: its dispatcher released \(location) (in `shutdown()`, or as it was "
                + "freed), which another dispatcher may own now. The store's state stays in memory only."
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
