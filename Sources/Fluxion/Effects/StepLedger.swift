/// The step running now — one action or one batch, from its middleware to its last observer — and the
/// serial the next one gets.
///
/// What a step's code dispatches or asks for carries the step's serial as
/// its cause, so that a journal can say which step made which.
final class StepLedger: @unchecked Sendable {  // touched only by the thread holding the dispatch turn
    /// The running step, as ``setAside()`` keeps it.
    struct Step {
        fileprivate let state: State
    }

    fileprivate struct State {
        var nextSerial: UInt64 = 1
        var serial: UInt64 = 0
        var isRunning = false
        /// Whether the step was dispatched directly: its cause is then read from the task, if asked.
        var isDirect = true
        /// The cause of a step that is not direct. NB: left in place by a direct step, as writing a
        /// `StepCause` costs more than a dispatch can spare.
        var cause = StepCause.outside
        var effectCount = 0
    }

    // NB: only the thread holding the dispatch turn touches the ledger. Every access to its state is
    // short, so the optimiser checks them all at compile time: none is left to run time.
    private var state = State()

    /// Whether a step is running.
    var isRunning: Bool { state.isRunning }

    /// The running step's serial.
    var serial: UInt64 { state.serial }

    /// Starts a step dispatched now, whose cause is read from the task only if asked.
    ///
    /// - Returns: Whether this call began a step, for ``end(_:)``: `false` when one was running already (a
    ///   batch folding into one), which then goes on.
    func beginDirect() -> Bool {
        guard begin() else { return false }
        state.isDirect = true
        return true
    }

    /// Starts a step that waited in a queue, with the cause it was queued with.
    ///
    /// - Returns: Whether this call began a step, for ``end(_:)``: `false` when one was running already,
    ///   which then goes on.
    func begin(_ cause: StepCause) -> Bool {
        guard begin() else { return false }
        state.isDirect = false
        state.cause = cause
        return true
    }

    /// Begins a step unless one is running; returns whether it did.
    private func begin() -> Bool {
        guard !state.isRunning else { return false }
        state.isRunning = true
        state.serial = state.nextSerial
        state.nextSerial &+= 1
        state.effectCount = 0
        return true
    }

    /// Ends the step, if `began`: what the `begin` that started it returned.
    func end(_ began: Bool) {
        if began { state.isRunning = false }
    }

    /// Keeps the running step aside while its thread gives the dispatch turn up (waiting for a store
    /// another thread creates): the threads that hold the turn meanwhile run steps of their own.
    func setAside() -> Step {
        defer { state.isRunning = false }
        return Step(state: state)
    }

    /// Takes the step ``setAside()`` kept back, with the turn; the serials given out meanwhile stay given.
    func restore(_ step: Step) {
        let nextSerial = state.nextSerial
        state = step.state
        state.nextSerial = nextSerial
    }

    /// The running step's cause; `nil` for a step dispatched directly, whose cause is its task's.
    var queuedCause: StepCause? {
        state.isDirect ? nil : state.cause
    }

    /// The cause of an action the running step's code dispatches; `nil` between steps.
    var causeOfQueued: StepCause? {
        state.isRunning ? .queued(by: state.serial) : nil
    }

    /// The place of the next effect the running step asks for: the step's serial, and the effects before it.
    func placeEffect() -> (step: UInt64, index: Int) {
        defer { state.effectCount += 1 }
        return (state.serial, state.effectCount)
    }

    /// Tags the next effect the running step asks for: a cancellation (an effect's task is its own tag).
    func tagCancellation(id: TaskKey, action: String) -> EffectTag {
        let (step, index) = placeEffect()
        return EffectTag(step: step, index: index, id: id, action: action, isCancellation: true)
    }
}

extension Dispatcher {
    /// The running step's serial and cause; read by the thread holding the dispatch turn.
    var runningStep: (serial: UInt64, cause: StepCause) {
        (steps.serial, steps.queuedCause ?? causeOfCurrentTask)
    }
}
