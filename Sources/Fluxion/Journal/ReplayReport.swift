/// What replaying a journal did, and whether the stores came out as recorded.
public struct ReplayReport: Sendable, Equatable, CustomStringConvertible {
    /// The first step after which a store's state differs from the recording, or the first refusal that
    /// was not refused again alike.
    public struct Mismatch: Sendable, Equatable, CustomStringConvertible {
        /// The journal file's line of the step (counting from 1; in memory, as the file would have it).
        public let line: Int
        /// The step's number; for a refusal, the number of the step before it.
        public let sequence: Int
        /// The step's action, as it prints.
        public let action: String
        /// What made the step run: a dispatch from outside, a step that queued it, or an effect.
        public let cause: JournalRecord.Cause
        /// The store whose state differs; ``noStore`` when the step's action threw.
        public let store: String
        /// The ``store`` of a mismatch whose step's action threw as it replayed: ``diff`` says what it threw.
        public static let noStore = "(no store)"
        /// The ``store`` of a refusal's mismatch: ``diff`` says how the action was refused, and what it did now.
        public static let refusal = "(refusal)"
        /// What differs, field by field, never empty: `path: recorded → replayed`; for a set's elements
        /// `path: - removed` and `path: + added`, for a dictionary's entries `path[key]: recorded → replayed`
        /// (or `- removed`, `+ added`); or why the action failed, or why the recorded state no longer decodes.
        public let diff: [String]

        init(line: Int, sequence: Int, action: String, cause: JournalRecord.Cause, store: String, diff: [String]) {
            (self.line, self.sequence, self.action, self.cause) = (line, sequence, action, cause)
            (self.store, self.diff) = (store, diff)
        }

        /// The mismatch in words: the step, its action, the store and the fields that differ.
        public var description: String {
            let cause = cause == .outside ? "" : ", \(cause)"
            let title =
                store == Self.refusal
                ? "the refusal after step #\(sequence) (\(action), line \(line)\(cause)) differs from the recording"
                : "step #\(sequence) (\(action), line \(line)\(cause)): \(store) differs from the recording"
            return ([title] + diff.map { "  \($0)" }).joined(separator: "\n")
        }
    }

    /// How many steps were dispatched again (a batch counts as one).
    public var replayed = 0
    /// How many recorded refusals were dispatched again and refused again with an equal error.
    public var refusalsReplayed = 0
    /// How many steps could not be dispatched again and had their recorded states set instead.
    public var applied = 0
    /// The errors of the lines skipped, when skipping was asked for.
    public var skipped: [JournalError] = []
    /// The first step whose resulting states differ from the recording; `nil` when all the states
    /// compared matched.
    public var mismatch: Mismatch?
    /// The stores whose state at the end of the replay differs from the recording's last, by name; a store
    /// in ``incomparableStores`` is not among them.
    public var differingStores: [String] = []
    /// The stores, by name and sorted, that a replayed step changed and whose state cannot be compared
    /// with the recording, as it is not `Codable` (the journal wrote it by its description): the replay
    /// cannot say they came out as recorded, so ``allMatched`` is `false`. A step that could not be
    /// dispatched again set the recorded states of the other stores, and left these as they were.
    public var incomparableStores: [String] = []
    /// The effects the recording started and never saw end, as `#step effect`: what they would have
    /// dispatched is missing (a journal cut short, or recorded while they ran). None was run.
    public var unfinishedEffects: [String] = []
    /// How many actions the replayed steps' handlers, observers and middleware dispatched that were not
    /// run: a replay replays the journal, and the journal has its own line for each one the recording
    /// ran, replayed at its recorded place.
    public var followUpsNotRun = 0
    /// How many tasks `dispatchTask` was asked for during the replay outside any step — by a store's
    /// factory the replay ran, say — that were not started: each threw `CancellationError` without
    /// running its work. (No effect of a replayed step starts either; see ``unfinishedEffects``.)
    public var tasksNotStarted = 0

    /// Whether every replayed step left the stores as the recording says: no state differed, and every
    /// state a step changed could be compared (``incomparableStores`` is empty).
    public var allMatched: Bool { mismatch == nil && incomparableStores.isEmpty }

    /// The report in words: how many steps replayed, and the first mismatch with its diff, if any.
    public var description: String {
        let matched =
            incomparableStores.isEmpty ? " All states matched the recording." : " The states compared matched."
        let outcome = mismatch.map { "\n\($0)" } ?? matched
        let incomparable =
            incomparableStores.isEmpty
            ? ""
            : "\nNot compared, as their states are not Codable: " + incomparableStores.joined(separator: ", ")
        let skipped = skipped.isEmpty ? "" : ", \(skipped.count) line(s) skipped"
        let followUps = followUpsNotRun == 0 ? "" : ", \(followUpsNotRun) queued action(s) left to their own lines"
        let tasks = tasksNotStarted == 0 ? "" : ", \(tasksNotStarted) task(s) not started"
        let unfinished =
            unfinishedEffects.isEmpty
            ? ""
            : "\nEffects with no recorded end (their dispatches are missing): "
                + unfinishedEffects.joined(separator: ", ")
        let refusals = refusalsReplayed == 0 ? "" : " and \(refusalsReplayed) refusal(s)"
        return
            "Replayed \(replayed) step(s)\(refusals), set \(applied) from recorded states\(skipped)\(followUps)\(tasks)."
            + "\(outcome)\(incomparable)\(unfinished)"
    }
}
