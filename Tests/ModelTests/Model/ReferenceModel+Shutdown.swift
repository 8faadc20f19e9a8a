// Cancellation that reaches a task in every state, and the end of a dispatcher. A step's task is registered
// when its start comes (cancellable, awaited by a drain), and its work begins once the turn has nothing
// queued: a cancellation from a later step of the same turn — `effects.cancel(id:)` in an action an observer
// dispatched, say — keeps it from ever running. A cancellation from another thread while a step runs
// reaches the tasks that step asked for before it, at once ("Working with Effects", "Cancellation is
// total"). `shutdown()` refuses new work, cancels every task, those asked for afterwards too, lets the
// action in flight run to its end, and writes what persistence has pending (`Dispatcher.shutdown()`).
extension ReferenceModel {
    /// Begins the work of the tasks the turn's steps started, in order, once nothing is queued.
    mutating func beginAwaiting() {
        while !awaiting.isEmpty {
            let gate = awaiting.removeFirst()
            guard tasks[gate]?.phase == .awaiting else { continue }
            begin(gate)
        }
    }

    /// A cancellation through the dispatcher reaches a task that ended, through the dispatches it left held
    /// or waiting: they are refused when they would run.
    mutating func cancelEndedTasksOfWaitingDispatches(where matches: (ModelTask) -> Bool) {
        let dispatches =
            held + waiting.compactMap { if case .task(let dispatch) = $0 { dispatch } else { nil } }
            + queue.compactMap { if case .released(.task(let dispatch)) = $0 { dispatch } else { nil } }
        for dispatch in dispatches {
            var gate = dispatch.gate
            if case .child(let parent)? = tasks[gate]?.origin { gate = parent }
            guard let task = tasks[gate], task.phase == .ended, matches(task) else { continue }
            tasks[gate]?.isCancelled = true
        }
    }

    /// `cancelTasks(id:)` from another thread while a step runs: the tasks running or queued under `id`, and
    /// those the step asked for before (in `deferred`), are cancelled now, whether or not the step commits.
    mutating func cancelDuringStep(_ id: String, deferred: [Queued]) {
        cancel { $0.plan.id == id }
        for case .start(let plan, _) in deferred where plan.id == id { cancelledBeforeStart.insert(plan.gate) }
    }

    /// Releases every suspension, then shuts down while `command` is dispatched from another thread: its first
    /// touched store's handler waits, once it did what its command says, until shutdown has begun.
    mutating func shutDown(inFlight command: Command) {
        while suspensions > 0 { release() }
        let isInFlight = !isTravelling && reachesItsFirstTouchedHandler(command)
        // NB: a dispatch that never reaches the pause has returned before shutdown begins.
        if !isInFlight { dispatchBeforeShutdown(command) }
        isShutDown = true
        cancel { _ in true }
        if isInFlight { dispatchNow(.op(command)) }
        flush()
    }

    private mutating func dispatchBeforeShutdown(_ command: Command) {
        guard !isTravelling else {
            world.outcome = "threw travelling"
            return
        }
        dispatchNow(.op(command))
    }

    /// Whether the handlers of `command` reach its first touched registered store's, where the action in flight
    /// waits.
    private func reachesItsFirstTouchedHandler(_ command: Command) -> Bool {
        let order = ModelHandler.order(command, registered: registered)
        guard let first = order.first(where: command.touches.contains) else { return false }
        let throwing = command.throwsIn.flatMap { order.firstIndex(of: $0) }
        return throwing.map { $0 > order.firstIndex(of: first)! } ?? true
    }
}
