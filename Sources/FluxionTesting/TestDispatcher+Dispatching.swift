import Fluxion

extension TestDispatcher {
    /// Dispatches a typed action and checks that the stores changed as `expected` says.
    ///
    /// ```swift
    /// try test.dispatch(.addTodo, payload: "Buy milk") {
    ///     $0.modify(TodoStore.self) { $0.items.append(Todo(title: "Buy milk")) }
    /// }
    /// ```
    ///
    /// A dispatch that throws is checked too, before its error is rethrown:
    /// an action refused before it committed (by a handler or a middleware)
    /// changed nothing, so `expected` must leave the stores as they were; one
    /// that committed and then threw (a middleware threw after passing it
    /// on) changed them, and `expected` says how:
    ///
    /// ```swift
    /// #expect(throws: AuditError.self) {
    ///     try test.dispatch(.addTodo, payload: "Buy milk") {  // the auditor throws after `next`
    ///         $0.modify(TodoStore.self) { $0.items.append(Todo(title: "Buy milk")) }
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: What ``/Fluxion/Dispatcher/dispatch(_:payload:error:)`` throws, after
    ///   the check; or what `expected` throws.
    public func dispatch<Payload>(
        _ name: ActionName<Payload>,
        payload: Payload,
        error: (any Error)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        _ expected: ((inout StateExpectation) throws -> Void)? = nil
    ) throws {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        failForUnreceivedActions(before: name.rawValue, at: site)
        do {
            try dispatcher.dispatch(name, payload: payload, error: error)
        } catch let failure {
            // NB: an action that changed the stores before it threw was recorded; without a step, none changed.
            let unchanged = TestLog.Step(
                action: AnyAction(name: name.rawValue, payload: payload, error: error), states: log.knownStates)
            try check(log.takeStep(named: name.rawValue) ?? unchanged, expected, thrown: failure, at: site)
            throw failure
        }
        guard let step = log.takeStep() else {
            return TestFailure.record("\(name) reached no store (a middleware dropped it?)", at: site)
        }
        try check(step, expected, at: site)
    }

    /// Dispatches a typed action without a payload and checks that the stores changed as `expected` says.
    ///
    /// ```swift
    /// try test.dispatch(.clearCompleted) { $0.modify(TodoStore.self) { $0.items = [] } }
    /// ```
    ///
    /// See ``dispatch(_:payload:error:fileID:filePath:line:column:_:)``, also for a dispatch that throws.
    public func dispatch(
        _ name: ActionName<Void>,
        error: (any Error)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        _ expected: ((inout StateExpectation) throws -> Void)? = nil
    ) throws {
        try dispatch(
            name, payload: (), error: error, fileID: fileID, filePath: filePath, line: line, column: column, expected)
    }

    /// Runs a batch on ``dispatcher`` and checks that its actions, together, changed the stores as
    /// `expected` says.
    ///
    /// ```swift
    /// try test.batch { batch in
    ///     try batch.dispatch(.addTodo, payload: "Buy milk")
    ///     try batch.dispatch(.completeTodo, payload: 1)
    /// } expecting: {
    ///     $0.modify(TodoStore.self) { $0.items = [Todo(title: "Buy milk", isDone: true)] }
    /// }
    /// ```
    ///
    /// A batch that throws changed nothing: `expected` is checked against the
    /// stores as they were, before the error is rethrown.
    ///
    /// - Throws: What ``/Fluxion/Dispatcher/batch(_:)`` throws, after the check; or what `expected` throws.
    @discardableResult
    public func batch<Value>(
        _ body: (DispatchBatch) throws -> Value,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        expecting expected: ((inout StateExpectation) throws -> Void)? = nil
    ) throws -> Value {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        failForUnreceivedActions(before: AnyAction.batchName, at: site)
        let unchanged = TestLog.Step(action: AnyAction(name: AnyAction.batchName), states: log.knownStates)
        let value: Value
        do {
            value = try dispatcher.batch(body)
        } catch let failure {
            // NB: a batch that throws rolled back: it never commits first.
            try check(unchanged, expected, subject: AnyAction.batchName, thrown: failure, at: site)
            throw failure
        }
        // NB: a batch that changed nothing is not recorded; the actions it queued may have been.
        let step = log.takeStep(named: AnyAction.batchName)
        try check(step ?? unchanged, expected, at: site)
        return value
    }
}
