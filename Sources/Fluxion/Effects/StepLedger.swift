/// The step running now — one action or one batch, from its middleware to its last observer — and the
/// serial the next one gets.
///
/// What a step's code dispatches or asks for carries the step's serial as
/// its cause, so that a journal can say which step made which.
final class StepLedger: @unchecked Sendable {  // touched only by the thread holding the dispatch turn
    private struct State {
        var nextSerial: UInt64 = 1
        var serial: UInt64 = 0
        var isRunning = false
        /// `nil` when the step was dispatched directly: its cause is read from the task only if asked.
        var cause: StepCause?
        var effectCount = 0
    }

    // NB: only the thread holding the dispatch turn touches the ledger, so its state skips the
    // run-time exclusivity checks, as the transaction's does.
    @exclusivity(unchecked) private var state = State()

    /// Whether a step is running.
    var isRunning: Bool { state.isRunning }

    /// The running step's serial.
    var serial: UInt64 { state.serial }

    /// Starts a step; `cause` is `nil` for a dispatch made now, whose cause is read from the task if asked.
    ///
    /// - Returns: Whether a step was running already (a batch folding into one): it then goes on.
    func begin(_ cause: StepCause?) -> Bool {
        guard !state.isRunning else { return false }
        state.isRunning = true
        state.serial = state.nextSerial
        state.nextSerial &+= 1
        state.cause = cause
        state.effectCount = 0
        return true
    }

    /// Ends the step `begin` started, if it did.
    func end(_ began: Bool) {
        if began { state.isRunning = false }
    }

    /// The running step's cause.
    var cause: StepCause {
        state.cause ?? .ofCurrentTask
    }

    /// The cause of an action the running step's code dispatches; `nil` between steps.
    var causeOfQueued: StepCause? {
        state.isRunning ? .queued(by: state.serial) : nil
    }

    /// Tags the next effect the running step asks for.
    func tagEffect(id: TaskKey?, action: String) -> EffectTag {
        defer { state.effectCount += 1 }
        return EffectTag(step: state.serial, index: state.effectCount, id: id, action: action)
    }
}

extension Dispatcher {
    /// The running step's serial and cause; read by the thread holding the dispatch turn.
    var runningStep: (serial: UInt64, cause: StepCause) {
        (steps.serial, steps.cause)
    }
}
