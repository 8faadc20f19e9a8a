import Foundation

// Replay: dispatching a recorded session again into a fresh dispatcher with the same store types,
// checking after each step that the stores came out as recorded.
extension Journal {
    /// Replays a journal file into `dispatcher`, whose store types are those of the recording.
    ///
    /// ```swift
    /// let report = try Journal.replay(contentsOf: sessionURL, into: TodoApp.makeDispatcher())
    /// print(report.allMatched ? "deterministic" : "\(report.mismatch!)")
    /// ```
    ///
    /// Each store starts from its state recorded before its first change.
    /// Each replayable step is dispatched again, in order, with its payload
    /// and its error decoded as their recorded types; a step that is not (its
    /// payload was not `Codable` or was redacted, or it carried an error whose
    /// type is not registered with ``Dispatcher/registerReplayableError(_:)``)
    /// has its recorded states set instead, as time travel does. After each
    /// step, every store the journal names is compared with its recorded state
    /// as a value, never as text: the recorded state is decoded as the store's
    /// state type and compared with `==` when the type is `Equatable`; when it
    /// is not, or the journal redacted part of it, the two are compared in a
    /// canonical form, with the values under the journal's redacted keys left
    /// out and each `Set`'s elements and `Dictionary`'s entries in one order.
    /// So the order a set or a dictionary was written in, which differs between
    /// processes, never counts. The report names the first store that differs,
    /// with the fields that differ (a set's elements removed and added, a
    /// dictionary's entries by key), and replay goes on.
    /// A store whose state is not `Codable` cannot be compared: once a step
    /// changes one, the report lists it in ``ReplayReport/incomparableStores``
    /// (so ``ReplayReport/allMatched`` is `false`), and the other stores are
    /// still compared; a step that cannot be dispatched again sets the
    /// recorded states of the other stores, and leaves it as it is.
    ///
    /// A replay replays the journal, and nothing else: an action that a
    /// replayed step's handler, observer or middleware dispatches is not run,
    /// as the journal's own line for it replays at its recorded place
    /// (``ReplayReport/followUpsNotRun`` counts them); no effect starts, and
    /// no task either: one `dispatchTask` starts meanwhile — a store's factory
    /// that the replay runs, say — throws `CancellationError` without running
    /// its work (``ReplayReport/tasksNotStarted`` counts them).
    ///
    /// - Parameters:
    ///   - url: The journal file.
    ///   - dispatcher: A fresh dispatcher with the recording's store types registered.
    ///   - skippingErrors: Whether a bad line is skipped (and listed in
    ///     ``ReplayReport/skipped``) rather than ending the replay by throwing.
    /// - Throws: ``JournalError``, naming the line: the file cannot be read or
    ///   is not a journal (always thrown), a line is corrupt or cut short, an
    ///   action no store handles, a store not registered, a payload or state
    ///   that no longer decodes, an error whose type `dispatcher` does not
    ///   register for replay, a step that cannot be dispatched again and
    ///   lacks the recorded state of a store whose state is `Codable`.
    public static func replay(contentsOf url: URL, into dispatcher: Dispatcher, skippingErrors: Bool = false) throws
        -> ReplayReport
    {
        let text = try text(of: url)
        var replayer = JournalReplayer(dispatcher: dispatcher, skippingErrors: skippingErrors)
        return try replayer.replay(JournalLine.decode(text), path: url.path, isComplete: text.hasSuffix("\n"))
    }

    /// Replays the steps in memory into `dispatcher`; see ``replay(contentsOf:into:skippingErrors:)``.
    public func replay(into dispatcher: Dispatcher, skippingErrors: Bool = false) throws -> ReplayReport {
        let lines = lines()
        var replayer = JournalReplayer(dispatcher: dispatcher, skippingErrors: skippingErrors)
        let numbered = lines.enumerated().map { ($0.offset + 1, Result<JournalLine, any Error>.success($0.element)) }
        return try replayer.replay(numbered, path: "the journal in memory", isComplete: true)
    }

    /// The steps of a journal file, to read (as `todo history` prints them).
    ///
    /// - Throws: ``JournalError`` for a file that cannot be read, is not a journal, or has a corrupt line.
    public static func records(contentsOf url: URL) throws -> [JournalRecord] {
        let text = try text(of: url)
        let lines = JournalLine.decode(text)
        try JournalReplayer.checkHeader(of: lines, path: url.path)
        let isComplete = text.hasSuffix("\n")
        var records: [JournalRecord] = []
        // NB: the records of resumes, and of the steps a resume dropped, whose numbers later steps may have.
        var (resumes, dropped): (Set<Int>, Set<Int>) = ([], [])
        for (number, line) in lines.dropFirst() {
            let isLast = number == lines.last?.number
            let line = try JournalReplayer.line(line, number: number, isLast: isLast, isComplete: isComplete)
            guard line.kind != .refusal else { continue }
            guard line.kind == .effect else {
                if line.kind == .resume, let position = line.sequence {
                    resumes.insert(records.count)
                    dropped.formUnion(records.indices.filter { records[$0].sequence > position })
                }
                records.append(JournalRecord(line))
                continue
            }
            // NB: an effect's lines follow its step's: its start adds it, its end completes it. The end of
            // an effect whose step a resume dropped is marked, and comes after the resume.
            let isDropped = line.effect?.dropped == true
            let isItsStep = { (index: Int) in records[index].sequence == line.sequence && !resumes.contains(index) }
            guard let event = line.effect,
                let index = records.indices.last(where: { isItsStep($0) && dropped.contains($0) == isDropped })
                    ?? records.indices.last(where: isItsStep)
            else { continue }
            records[index].note(event, at: line.time ?? Date(timeIntervalSince1970: 0))
        }
        return records
    }

    /// The refusals of a journal file, in the order recorded: the actions the dispatcher refused.
    ///
    /// ```swift
    /// for refusal in try Journal.refusals(contentsOf: sessionURL) { print(refusal) }
    /// ```
    ///
    /// - Throws: ``JournalError`` for a file that cannot be read, is not a journal, or has a corrupt line.
    public static func refusals(contentsOf url: URL) throws -> [JournalRefusal] {
        let text = try text(of: url)
        let lines = JournalLine.decode(text)
        try JournalReplayer.checkHeader(of: lines, path: url.path)
        return try lines.dropFirst().compactMap { number, line in
            let isLast = number == lines.last?.number
            let line = try JournalReplayer.line(line, number: number, isLast: isLast, isComplete: text.hasSuffix("\n"))
            return line.kind == .refusal ? JournalRefusal(line) : nil
        }
    }

    /// The text of a journal file.
    private static func text(of url: URL) throws -> String {
        guard let text = String(data: try bytes(of: url), encoding: .utf8) else {
            throw JournalError.notAJournal(path: url.path, reason: "it is not UTF-8 text")
        }
        return text
    }

    /// The bytes of the file at `url`.
    ///
    /// - Throws: ``JournalError/unreadableFile(path:reason:)`` when it cannot be read.
    static func bytes(of url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            let exists = FileManager.default.fileExists(atPath: url.path)
            throw JournalError.unreadableFile(path: url.path, reason: exists ? "\(error)" : "there is no such file")
        }
    }
}
