import Fluxion

extension TestDispatcher {
    /// Waits for the next error of a task ``dispatcher`` tracks, checks it is of the task `id` and of
    /// the kind `kind` when given, then runs `body` on it.
    ///
    /// ```swift
    /// try test.dispatch(.search, payload: "mil") { $0.modify(SearchStore.self) { $0.query = "mil" } }
    /// try await test.receiveTaskError(id: "search", kind: .threw) { error in
    ///     #expect(error.error as? SearchError == .offline)
    /// }
    /// await test.finish()
    /// ```
    ///
    /// A test dispatcher hears every ``/Fluxion/TaskError`` through the dispatcher's
    /// ``/Fluxion/Dispatcher/onTaskError``, which it sets when it is created (replace
    /// the hook and the test no longer hears them): what a task threw, a
    /// dispatch refused because its task was cancelled, a dispatch dropped by
    /// a journal. Each must be received, in the order they came, or
    /// ``finish(timeout:fileID:filePath:line:column:)`` fails the test for it,
    /// with ``Exhaustivity/off`` too. Task errors come apart from actions, so
    /// dispatching and receiving actions while some wait is not a failure;
    /// a ``receive(_:timeout:fileID:filePath:line:column:_:)-(ActionName<Payload>,_,_,_,_,_,_)`` that times out
    /// lists them.
    ///
    /// It fails the test if none comes within `timeout`; an error of another
    /// task or kind fails it too, and is let go without `body` running.
    ///
    /// - Parameters:
    ///   - id: The id the task was started under; `nil` for any task.
    ///   - kind: What happened; `nil` for any kind.
    ///   - timeout: How long to wait for the error, in real time; 30 seconds by default.
    ///   - fileID: The file a failure is reported in; the caller's by default.
    ///   - filePath: The path of that file; the caller's by default.
    ///   - line: The line a failure is reported at; the caller's by default.
    ///   - column: The column a failure is reported at; the caller's by default.
    ///   - body: Runs on the error when it is the one expected: `#expect` what else matters.
    /// - Throws: What `body` throws.
    public func receiveTaskError(
        id: (any Hashable & Sendable)? = nil,
        kind: TaskError.Kind? = nil,
        timeout: Duration = .seconds(30),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        _ body: ((TaskError) throws -> Void)? = nil
    ) async throws {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let task = id.map { "task \"\($0)\"" }
        let described =
            switch kind {
            case nil: "a task error" + (task.map { " of \($0)" } ?? "")
            case .threw?: "an error thrown by \(task ?? "a task")"
            case .refused?: "a refused dispatch of \(task ?? "a task")"
            case .dropped?: "a dropped dispatch of \(task ?? "a task")"
            }
        guard let error = await log.takeTaskError(before: .now + timeout) else {
            return TestFailure.record("expected \(described), but none came within \(timeout)", at: site)
        }
        guard id.map({ error.hasTaskID($0) }) ?? true, kind.map({ error.kind == $0 }) ?? true else {
            return TestFailure.record("expected \(described), but received: \(error)", at: site)
        }
        try body?(error)
    }

    /// Fails the test for each task error not received; lets them go.
    func failForTaskErrors(at site: CallSite) {
        for error in log.takeTaskErrors() {
            TestFailure.record("a task error was not received by the end of the test: \(error)", at: site)
        }
    }
}
