import Fluxion
import Foundation

/// `todo replay FILE`: a recorded session dispatched again, from the states recorded before its first step,
/// into an app whose storage is empty (nothing on disk is read or changed).
enum SessionReplay {
    /// Replays the journal at `url` and says whether every state, and the final list, matched.
    ///
    /// - Throws: ``JournalError`` for a file that cannot be read or replayed,
    ///   naming the line; ``ReplayMismatch`` when a state differs, with the report.
    static func replay(_ url: URL) throws -> String {
        let app = try TodoApp(storage: InMemoryStateStorage(), key: "todos")
        let report = try Journal.replay(contentsOf: url, into: app.dispatcher)
        let list = TodoRenderer.list(app.todos.state, filter: .all)
        guard report.allMatched else { throw ReplayMismatch(report: report, list: list) }
        return "\(report)\nThe final list matches the recording:\n\(list)"
    }
}

/// A replay whose states differ from the recording: a handler that is not deterministic.
public struct ReplayMismatch: Error, CustomStringConvertible {
    /// What the replay found.
    public let report: ReplayReport
    /// The list as the replay left it.
    public let list: String

    public var description: String {
        let final = report.differingStores.contains("TodoStore") ? "differs from" : "matches"
        return "\(report)\nThe final list \(final) the recording:\n\(list)"
    }
}
