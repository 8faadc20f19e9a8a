import Fluxion
import Foundation

// A recorded session as a test: a journal file a user sent with a bug report, or one a test keeps,
// replayed into a fresh dispatcher with no live effects, failing the test where the stores differ.
extension TestDispatcher {
    /// Replays the journal file at `url` into `dispatcher`, a fresh dispatcher with the recording's
    /// stores registered, and fails the test at the first step whose states differ from the recording.
    ///
    /// ```swift
    /// @Test func theSessionOfTheBugReportReplays() throws {
    ///     let session = try #require(Bundle.module.url(forResource: "session", withExtension: "jsonl"))
    ///     try TestDispatcher.replay(contentsOf: session, into: TodoApp.makeDispatcher())
    /// }
    /// ```
    ///
    /// The replay is ``/Fluxion/Journal/replay(contentsOf:into:skippingErrors:)``: each
    /// step is dispatched again, in order, and no effect or task runs (what the
    /// recorded effects dispatched replays from the journal's own lines). Where
    /// every state matches, the test passes silently. Otherwise it fails once,
    /// at this call, naming the first step that differs — its action, its
    /// cause and, field by field, what the recording has and what the replay
    /// made (`path: recorded → replayed`) — or each store the replay cannot
    /// compare, as its state is not `Codable`. A recorded refusal is dispatched
    /// again too, and fails the test when it is no longer refused, or refused
    /// with another error: "the refusal of addTodo() after step #2 (line 4) was
    /// not refused again alike: refused with emptyTitle; now it succeeds".
    ///
    /// - Parameters:
    ///   - url: The journal file.
    ///   - dispatcher: A fresh dispatcher with the recording's store types registered, as your app builds it.
    ///   - fileID: The file a failure is reported in; the caller's by default.
    ///   - filePath: The path of that file; the caller's by default.
    ///   - line: The line a failure is reported at; the caller's by default.
    ///   - column: The column a failure is reported at; the caller's by default.
    /// - Returns: The replay's report, to check more (``/Fluxion/ReplayReport/unfinishedEffects``, say).
    /// - Throws: ``/Fluxion/JournalError`` when the file cannot be read or replayed: a corrupt line, an action no
    ///   store handles, a store not registered, a payload or state that no longer decodes.
    @discardableResult
    public static func replay(
        contentsOf url: URL,
        into dispatcher: Dispatcher,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) throws -> ReplayReport {
        let report = try Journal.replay(contentsOf: url, into: dispatcher)
        if let failure = failure(of: report, replaying: url) {
            TestFailure.record(failure, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
        }
        return report
    }

    /// Replays the journal file at `url` into a new dispatcher, on which `register` registers the
    /// recording's stores, and fails the test at the first step whose states differ from the recording;
    /// see ``replay(contentsOf:into:fileID:filePath:line:column:)``.
    ///
    /// ```swift
    /// try TestDispatcher.replay(contentsOf: session) { dispatcher in
    ///     try dispatcher.register(TodoStore.self)
    ///     try dispatcher.register(FilterStore.self)
    /// }
    /// ```
    @discardableResult
    public static func replay(
        contentsOf url: URL,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        registering register: (Dispatcher) throws -> Void
    ) throws -> ReplayReport {
        let dispatcher = Dispatcher()
        try register(dispatcher)
        return try replay(
            contentsOf: url, into: dispatcher, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// The failure a replay's report makes, or `nil` when every state matched.
    static func failure(of report: ReplayReport, replaying url: URL) -> String? {
        let file = url.lastPathComponent
        if let mismatch = report.mismatch {
            let cause = mismatch.cause == .outside ? "" : ", \(mismatch.cause)"
            let step = "step #\(mismatch.sequence) \(mismatch.action) (line \(mismatch.line)\(cause))"
            let diff = mismatch.diff.map { "\n  \($0)" }.joined()
            guard mismatch.store != ReplayReport.Mismatch.refusal else {
                let refusal =
                    "the refusal of \(mismatch.action) after step #\(mismatch.sequence) (line \(mismatch.line)\(cause))"
                return "replaying \(file): \(refusal) was not refused again alike:\(diff)"
            }
            guard mismatch.store != ReplayReport.Mismatch.noStore else {
                return "replaying \(file): \(step) did not replay:\(diff)"
            }
            return "replaying \(file): \(step) left \(mismatch.store) other than the recording "
                + "(recorded → replayed):\(diff)"
        }
        guard report.incomparableStores.isEmpty else {
            return "the replay of \(file) cannot compare "
                + report.incomparableStores.joined(separator: ", ")
                + " with the recording: their states are not Codable"
        }
        return nil
    }
}
