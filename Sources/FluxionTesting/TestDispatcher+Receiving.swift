import Fluxion

extension TestDispatcher {
    /// Waits for the next action to reach the stores, checks it is named `name`, and that the stores
    /// changed as `expected` says.
    ///
    /// ```swift
    /// try test.dispatch(.search, payload: "mil") { $0.modify(SearchStore.self) { $0.query = "mil" } }
    /// try await test.receive("searchFinished") { $0.modify(SearchStore.self) { $0.results = ["milk"] } }
    /// ```
    ///
    /// The action may come from a handler, an observer or a middleware (queued
    /// behind the one dispatched), or from a task; it fails the test if none
    /// comes within `timeout`, and the failure lists the task errors not
    /// received yet, which may say why. An action received under another name
    /// fails the test and is let go: the next `receive` waits for the one after.
    public func receive(
        _ name: String,
        timeout: Duration = .seconds(30),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        _ expected: ((inout StateExpectation) throws -> Void)? = nil
    ) async throws {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        try await receive(name, described: name, matching: { _ in true }, timeout: timeout, at: site, expected)
    }

    /// Waits for a typed action to reach the stores; see
    /// ``receive(_:timeout:fileID:filePath:line:column:_:)-(String,_,_,_,_,_,_)``.
    ///
    /// ```swift
    /// try await test.receive(.searchFinished) { $0.modify(SearchStore.self) { $0.results = ["milk"] } }
    /// ```
    public func receive<Payload>(
        _ name: ActionName<Payload>,
        timeout: Duration = .seconds(30),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        _ expected: ((inout StateExpectation) throws -> Void)? = nil
    ) async throws {
        try await receive(
            name.rawValue, timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column, expected)
    }

    /// Waits for a typed action to reach the stores, checks that it carries `payload` and `error`, as
    /// it would have been dispatched with them, and that the stores changed as `expected` says.
    ///
    /// ```swift
    /// try await test.receive(.searchFinished, payload: ["milk"]) {
    ///     $0.modify(SearchStore.self) { $0.results = ["milk"] }
    /// }
    /// try await test.receive(.searchFinished, payload: nil, error: SearchError.offline) {
    ///     $0.modify(SearchStore.self) { $0.isOffline = true }
    /// }
    /// ```
    ///
    /// Without `error`, the action must carry none. A payload or an error
    /// other than these fails the test, showing the action expected and the
    /// one received; the states are then not checked.
    ///
    /// - Parameters:
    ///   - name: The action's name.
    ///   - payload: The payload the action must carry, compared with `==`.
    ///   - error: The error the action must carry, compared with `==`; `nil` for none.
    ///   - timeout: How long to wait for the action, in real time; 30 seconds by default.
    ///   - fileID: The file a failure is reported in; the caller's by default.
    ///   - filePath: The path of that file; the caller's by default.
    ///   - line: The line a failure is reported at; the caller's by default.
    ///   - column: The column a failure is reported at; the caller's by default.
    ///   - expected: Changes the states as last asserted into the states the stores must have after the
    ///     action; `nil` when it changes none.
    public func receive<Payload: Equatable>(
        _ name: ActionName<Payload>,
        payload: Payload,
        error: (any Error & Equatable)? = nil,
        timeout: Duration = .seconds(30),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        _ expected: ((inout StateExpectation) throws -> Void)? = nil
    ) async throws {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let described =
            "\(name.rawValue)(\(plainDescription(of: payload)))"
            + (error.map { " error: \(plainDescription(of: $0))" } ?? "")
        try await receive(
            name.rawValue, described: described,
            matching: { action in
                guard action.payload(as: Payload.self) == payload else { return false }
                guard let error else { return action.error == nil }
                return carries(action, error)
            }, timeout: timeout, at: site, expected)
    }

    /// Waits for a typed action to reach the stores, checks that it carries `error`, whatever its
    /// payload, and that the stores changed as `expected` says.
    ///
    /// ```swift
    /// try await test.receive(.searchFinished, error: SearchError.offline) {
    ///     $0.modify(SearchStore.self) { $0.isOffline = true }
    /// }
    /// ```
    ///
    /// Another error, or none, fails the test, showing the action expected and
    /// the one received; the states are then not checked. To check a payload
    /// too, use ``receive(_:payload:error:timeout:fileID:filePath:line:column:_:)``.
    ///
    /// - Parameters:
    ///   - name: The action's name.
    ///   - error: The error the action must carry, compared with `==`.
    ///   - timeout: How long to wait for the action, in real time; 30 seconds by default.
    ///   - fileID: The file a failure is reported in; the caller's by default.
    ///   - filePath: The path of that file; the caller's by default.
    ///   - line: The line a failure is reported at; the caller's by default.
    ///   - column: The column a failure is reported at; the caller's by default.
    ///   - expected: Changes the states as last asserted into the states the stores must have after the
    ///     action; `nil` when it changes none.
    public func receive<Payload>(
        _ name: ActionName<Payload>,
        error: any Error & Equatable,
        timeout: Duration = .seconds(30),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        _ expected: ((inout StateExpectation) throws -> Void)? = nil
    ) async throws {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        try await receive(
            name.rawValue, described: "\(name.rawValue)(…) error: \(plainDescription(of: error))",
            matching: { carries($0, error) },
            timeout: timeout, at: site, expected)
    }

    /// Waits for the next action, checks it is named `name` and that `matches` accepts it, then checks
    /// the states after it; `described` is the action expected, for the failure messages.
    private func receive(
        _ name: String,
        described: String,
        matching matches: (AnyAction) -> Bool,
        timeout: Duration,
        at site: CallSite,
        _ expected: ((inout StateExpectation) throws -> Void)?
    ) async throws {
        guard let step = await log.takeStep(before: .now + timeout) else {
            let pending = log.taskErrors.map { "\($0)" }
            let why = pending.isEmpty ? "" : "; task errors not received yet: " + pending.joined(separator: "; ")
            return TestFailure.record(
                "expected to receive \(described), but no action came within \(timeout)\(why)", at: site)
        }
        guard step.action.name == name, matches(step.action) else {
            log.knownStates = step.states
            return TestFailure.record("expected to receive \(described), but received \(step.action)", at: site)
        }
        try check(step, expected, at: site)
    }
}

/// Whether `action` carries an error equal to `error`.
private func carries<Failure: Error & Equatable>(_ action: AnyAction, _ error: Failure) -> Bool {
    (action.error as? Failure) == error
}
