import Foundation

// Performance traces: what a dispatch records while a trace is on. Each place that would record
// tests `transaction.tracer`, which only the turn holder touches: while no trace records, it is
// `nil`, and that test is all a trace costs.
extension Dispatcher {
    /// Starts recording where this dispatcher's time goes: each action, its middleware, each
    /// store's handler, its commit, each observer, and each effect.
    ///
    /// ```swift
    /// let trace = dispatcher.startTracing(slowActionThreshold: .milliseconds(16)) { report in
    ///     print(report)  // an action that took longer, part by part
    /// }
    /// try dispatcher.dispatch(.addTodo, payload: "Buy milk")
    /// trace.stop()
    /// try trace.write(to: URL(fileURLWithPath: "todo-trace.json"))  // open it in Perfetto
    /// ```
    ///
    /// The trace records from the next action on (started from a handler, from the running one's
    /// next part), until ``PerformanceTrace/stop()``, until it is released, or until another trace
    /// of this dispatcher starts, which stops it. Called while another thread runs an action, this
    /// waits for that action to end, as a dispatch would.
    ///
    /// With a `slowActionThreshold`, each action (or batch) that takes longer, from its first
    /// middleware to its last observer, is reported once it ends, on its thread, with the time of
    /// each of its parts: to `onSlowAction`, or, without one, to standard error.
    ///
    /// - Parameters:
    ///   - capacity: How many spans to keep, the newest; 1 at least.
    ///   - slowActionThreshold: How long an action may take before it is reported; `nil`, the
    ///     default, reports none.
    ///   - onSlowAction: Called with the report of each slow action; `nil` prints it to standard error.
    /// - Returns: The trace; keep it: releasing it stops it.
    public func startTracing(
        capacity: Int = 100_000,
        slowActionThreshold: Duration? = nil,
        onSlowAction: (@Sendable (SlowActionReport) -> Void)? = nil
    ) -> PerformanceTrace {
        startTracing(
            capacity: capacity, slowActionThreshold: slowActionThreshold, onSlowAction: onSlowAction, clock: nil)
    }

    /// Starts a trace that reads `clock`, in nanoseconds, instead of the monotonic clock: tests move it.
    func startTracing(
        capacity: Int,
        slowActionThreshold: Duration?,
        onSlowAction: (@Sendable (SlowActionReport) -> Void)?,
        clock: (@Sendable () -> UInt64)?
    ) -> PerformanceTrace {
        let threshold = slowActionThreshold.map { duration -> UInt64 in
            let (seconds, attoseconds) = duration.components
            guard seconds >= 0, attoseconds >= 0 else { return 0 }
            return UInt64(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000).partialValue
                &+ UInt64(attoseconds / 1_000_000_000)
        }
        let recorder = TraceRecorder(
            capacity: capacity, slowThreshold: threshold, onSlowAction: onSlowAction ?? Self.printSlowAction,
            clock: clock)
        let trace = PerformanceTrace(
            dispatcher: self, capacity: capacity, slowActionThreshold: slowActionThreshold, recorder: recorder)
        // NB: the turn holder alone reads the field: it is set holding the turn.
        let replaced = withTurn {
            defer { transaction.tracer = recorder }
            return transaction.tracer
        }
        if let replaced { stopTracing(replaced) }
        return trace
    }

    /// Stops `recorder`, and its observer of effects.
    func stopTracing(_ recorder: TraceRecorder) {
        if let key = recorder.stop() { stopObservingTaskEvents(key) }
    }

    /// Prints a slow action's report to standard error.
    private static func printSlowAction(_ report: SlowActionReport) {
        FileHandle.standardError.write(Data("Fluxion: \(report)\n".utf8))
    }

    /// The recorder of the trace that records, if one does; a stopped one is let go here.
    func tracingRecorder() -> TraceRecorder? {
        guard let recorder = transaction.tracer else { return nil }
        guard recorder.isStopped else { return recorder }
        transaction.tracer = nil  // NB: released by the turn holder, which alone reads the field
        return nil
    }

    /// Runs `body`, an action named `name`, as a span of `recorder`; one not in a batch is a step,
    /// which the slow-action report looks at.
    @inline(never)
    func trace(_ name: String, recordingIn recorder: TraceRecorder, _ body: () throws -> Void) throws {
        guard tracingRecorder() != nil else { return try body() }
        let isStep = !transaction.isBatch
        let mark = recorder.begin(.action, .named(name))
        var outcome: String?
        defer {
            if isStep {
                recorder.endStep(mark, action: name, outcome: outcome)
            } else {
                recorder.end(mark, action: name, outcome: outcome)
            }
        }
        do {
            try body()
        } catch {
            outcome = "threw"
            throw error
        }
    }

    /// Runs an action's handlers as `transact(_:_:payload:error:untyped:)` does, recording their spans, and the
    /// action's, unless its middleware's span holds them.
    @inline(never)
    func transactTraced<Payload: Sendable>(
        _ list: RouteList, _ name: String, payload: Payload, error: (any Error)?, untyped: UnsafePointer<AnyAction>?
    ) throws {
        let erased = { untyped?.pointee ?? AnyAction(name: name, payload: payload, error: error) }
        let tracing = tracingRecorder()
        // NB: as `transact` does, recording the commit's and the observers' spans.
        func transactRecording() throws {
            guard !transaction.isBatch else {
                transaction.appendToBatch(erased())
                return try transaction.runHandlers(
                    name, payload: payload, error: error, through: list, tracing: tracing)
            }
            do {
                try transaction.runHandlers(name, payload: payload, error: error, through: list, tracing: tracing)
            } catch {
                transaction.fail(error)
            }
            try commit(recordingIn: tracing, erased: erased)
        }
        guard let recorder = tracing, !middlewareRuns.isRunning else { return try transactRecording() }
        try trace(name, recordingIn: recorder, transactRecording)
    }

    /// Ends the transaction of one action as `transact` does, recording its commit's and its observers' spans, if
    /// `recorder` records.
    private func commit(recordingIn recorder: TraceRecorder?, erased: () -> AnyAction) throws {
        guard let recorder else {
            let delivery = try transaction.end(step: steps.serial)
            if transaction.hasQueued { moveTransactionActions() }
            if !delivery.isEmpty { transaction.deliver(delivery, as: erased()) }
            return
        }
        let action = transaction.actionName
        let commit = recorder.begin(.commit, .named("commit"))
        let delivery: PendingDelivery
        do {
            delivery = try transaction.end(step: steps.serial)
        } catch {
            recorder.end(commit, action: action, outcome: "rolled back")
            throw error
        }
        recorder.end(commit, action: action, outcome: "committed")
        if transaction.hasQueued { moveTransactionActions() }
        guard !delivery.isEmpty else { return }
        let observers = recorder.begin(.observers, .named("observers"))
        transaction.deliver(delivery, as: erased(), tracing: recorder)
        recorder.end(observers, action: action)
    }
}
