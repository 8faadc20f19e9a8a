/// Everything a program can see of a dispatcher after an operation; the model predicts it whole.
struct World: Equatable, Sendable {
    /// The items each store shows, by index (A 0 … H 7); `[-1]` for a store type not registered.
    var states: [[Int]] = Array(repeating: [], count: ModelStoreSet.count)
    /// Each change each store's observer heard, in order: `A [1] → [1, 2] by model.op`.
    var observed: [String] = []
    /// What each `read {}` of a handler or an observer saw, in order.
    var reads: [String] = []
    /// The journal's records: sequence, action name, cause, changed stores, effects.
    var records: [String] = []
    /// What each gate's task did: began, cancelled, returned, or the error its dispatch threw.
    var taskLog: [Int: [String]] = [:]
    /// Task errors, queued errors and refusals (compared in any order).
    var reports: [String] = []
    /// What the operation itself returned or threw.
    var outcome = "ok"
    /// After `flush`, each archive's items by key.
    var archive: [String: [Int]]?
    /// `runningTaskCount`.
    var running = 0

    /// The fields that differ from `other`, each as `field: self ≠ other`.
    func differences(from other: World) -> [String] {
        var lines: [String] = []
        func compare<T: Equatable>(_ name: String, _ mine: T, _ theirs: T) {
            if mine != theirs { lines.append("\(name):\n    real:  \(mine)\n    model: \(theirs)") }
        }
        compare("outcome", outcome, other.outcome)
        compare("states", states, other.states)
        compare("observed", observed, other.observed)
        compare("reads", reads, other.reads)
        compare("records", records, other.records)
        compare(
            "taskLog", taskLog.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" },
            other.taskLog.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" })
        // NB: a task cancelled while it awaits the drain reports from its own thread, in no set order.
        compare("reports", reports.sorted(), other.reports.sorted())
        compare("archive", archive, other.archive)
        compare("running", running, other.running)
        return lines
    }
}

/// How a journal record reads in a ``World``.
enum RecordText {
    static func line(
        sequence: Int, name: String, cause: String, stores: [String], effects: [String]
    ) -> String {
        "#\(sequence) \(name) ← \(cause) changed \(stores) effects \(effects)"
    }
}
