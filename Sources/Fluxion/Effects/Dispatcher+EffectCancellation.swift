import Foundation

// A handler's cancellation of the tasks under an id: deferred to its step's commit like an effect's
// start, in order with the step's effects, and recorded with them.
extension Dispatcher {
    /// Asks, from the handler call `call`, to cancel the tasks under `id` when the running step commits.
    func requestCancellation(of id: TaskKey, inCall call: UInt64) {
        guard runsHandlerCall(call) else {
            let error = FluxionError.effectOutsideHandler("\(id.value)")
            return report(TaskError(.refused, taskID: id.value, action: nil, error: error))
        }
        let tag = steps.tagCancellation(id: id, action: transaction.actionName)
        transaction.enqueue(
            QueuedAction(cancellationOf: AnyAction(name: transaction.actionName), cause: .queued(by: tag.step)) {
                $0.cancel(as: tag)
            })
    }

    /// Cancels the tasks under the id of `tag`, a committed step's cancellation, and tells the journals.
    ///
    /// NB: a replay cancels nothing: it starts no task, and its journal lines tell what happened. Starts
    /// queued before it are tracked already, their work not begun (it begins once nothing is queued): they
    /// never run it. Those queued after it were asked for after it, and are not reached.
    private func cancel(as tag: EffectTag) {
        let observers = state.withLock { state in
            state.effectPauses > 0 ? nil : Array(state.taskEventObservers.values)
        }
        guard let observers else { return }
        // NB: in its place among the queued work: a start queued behind it, even of its own step, is not reached.
        let cancellations = state.withLock { state in
            hasCancelledTasks.set(true)
            defer { taskCancellations.store(state.tasks.cancellations) }
            // NB: it runs between two steps: no task waits for a commit.
            return state.tasks.cancel(tag.id, queuedStarts: false)
        }
        for cancellation in cancellations { cancellation.cancel() }
        let now = Date.readingRealTimeClock()
        for observer in observers { observer(.started(tag, at: now)) }
        for observer in observers { observer(.ended(tag, .finished, at: now)) }
    }
}
