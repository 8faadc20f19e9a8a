import Fluxion

/// The message `todo` prints for a persistence error, naming the file.
public enum PersistenceMessage {
    /// The message for `error`, an error about one of `file`'s archives.
    public static func text(for error: PersistenceError, file: TodoFile) -> String {
        let keys = TodoApp.archiveKeys(for: file.key)
        func what(_ key: String) -> String {
            switch key {
            case keys.filter: "showing all todos"
            case keys.history: "with no undo history"
            default: "with an empty list"
            }
        }
        func aside(_ key: String, _ setAsideAs: String?) -> String {
            guard let setAsideAs else { return "starting \(what(key))" }
            return "it was kept aside as \(setAsideAs); starting \(what(key))"
        }
        switch error {
        case .corruptArchive(let key, let setAsideAs, let reason):
            return "\(file.path(ofArchive: key)) is corrupt (\(reason)); \(aside(key, setAsideAs))"
        case .loadFailed(let key, let setAsideAs, let reason):
            return "could not read \(file.path(ofArchive: key)) (\(reason)); \(aside(key, setAsideAs))"
        case .newerVersion(let key, let found, let supported, let setAsideAs):
            return "\(file.path(ofArchive: key)) was written by a newer todo (version \(found), "
                + "this one reads \(supported)); \(aside(key, setAsideAs))"
        case .migrationFailed(let key, _, _, let setAsideAs, let reason):
            return "could not upgrade \(file.path(ofArchive: key)) (\(reason)); \(aside(key, setAsideAs))"
        case .setAsideFailed(let key, let reason):
            return "could not keep \(file.path(ofArchive: key)) aside: \(reason)"
        case .saveFailed(let key, let reason):
            return "could not save \(file.path(ofArchive: key)): \(reason)"
        case .invalidKey, .invalidConfiguration, .fileOperationFailed, .locationInUse, .locationReleased:
            return "\(error)"
        }
    }
}
