import Foundation

/// How a journal records: the dispatcher hands it each action as the action reaches the stores,
/// past the last middleware, and each batch once it has committed.
///
/// It is not a middleware: an action keeps its payload's type on its way to
/// the stores, and a dispatch with a journal attached costs what recording
/// costs, not a trip through the chain. It works out the stores an action
/// changed with the journal's tracker, and holds the parts of the journal that
/// recording needs, not the journal: the journal, which holds the dispatcher,
/// is not kept alive by the dispatcher.
final class JournalRecorder: Sendable {
    let contents: Guarded<Journal.Contents>
    let showsPast: AtomicFlag
    let tracker: JournalTracker
    let writer: JournalWriter?

    init(contents: Guarded<Journal.Contents>, showsPast: AtomicFlag, tracker: JournalTracker, writer: JournalWriter?) {
        self.contents = contents
        self.showsPast = showsPast
        self.tracker = tracker
        self.writer = writer
    }

    /// Runs `body`, which takes the action `action` makes through the stores of `list`, and records the
    /// step it makes, unless it is one of a batch's actions, recorded with the batch.
    ///
    /// NB: the action is made where it is needed, so that the one the entry keeps is made in it, uncopied.
    ///
    /// - Throws: ``JournalError/travelling(action:step:)`` while the stores show the past, or what `body` threw.
    @inline(__always)
    func record<Result>(
        _ action: () -> AnyAction, reaching list: RouteList, in dispatcher: Dispatcher, _ body: () throws -> Result
    ) throws -> Result {
        try refuseWhilePastIsShown(action, by: dispatcher)
        if list.isMutation {
            if let mutation = action().payload as? StoreMutation { try noteStore(of: mutation, in: dispatcher) }
        } else {
            tracker.noteStates(of: list)
        }
        let result: Result
        do {
            result = try body()
        } catch {
            // NB: a batch's action that fails fails the batch, which is recorded as the refusal.
            if !dispatcher.transaction.isBatch {
                refused(action(), with: error, by: dispatcher, cause: dispatcher.runningStep.cause)
            }
            throw error
        }
        // NB: a batch's actions are recorded as one step, once the batch has committed; the caller holds the turn.
        guard !dispatcher.transaction.isBatch else { return result }
        record(action, step: dispatcher.runningStep) { tracker.changes(of: list) }
        return result
    }

    /// Records a batch that committed, as one step; the journal's own travel is noted, not recorded.
    func batchCommitted(_ batch: AnyAction, in dispatcher: Dispatcher) {
        guard batch.name != AnyAction.travelName else {
            _ = tracker.changesOfAll()
            return
        }
        let action = { batch }
        record(action, step: dispatcher.runningStep) { tracker.changesOfAll() }
    }

    /// Throws unless the step may reach the stores, as ``Admission`` decides: it refuses one while they show
    /// the past, unless it is the journal's own travel; a task's refused action (in a batch: its plain
    /// dispatches are held) is reported to the task error hook.
    private func refuseWhilePastIsShown(_ action: () -> AnyAction, by dispatcher: Dispatcher) throws {
        // NB: the flag is set under the journal's lock by a move, which holds the dispatch turn, as the caller does.
        guard showsPast.isSet else { return }
        var facts = Admission.Facts()
        let position = contents.withLock { $0.isMoving ? nil : $0.position }
        facts.isPastShown = position != nil
        guard case .refuse = Admission.decide(.step, facts), let position else { return }
        let action = action()
        let error = JournalError.travelling(action: action.name, step: position)
        if let task = dispatcher.currentTask {
            dispatcher.report(TaskError(.refused, taskID: task.id?.value, action: action.name, error: error))
        }
        if !dispatcher.transaction.isBatch {
            refused(action, with: error, reason: .pastShown, by: dispatcher, cause: dispatcher.runningStep.cause)
        }
        throw error
    }

    /// Records that `dispatcher` refused `action` with `error`, for `reason` (worked out from the error
    /// when `nil`); `cause` made it run. Called on the thread that dispatched it.
    func refused(
        _ action: AnyAction, with error: any Error, reason: JournalRefusal.Reason? = nil, by dispatcher: Dispatcher,
        cause: StepCause
    ) {
        let time = Date.readingRealTimeClock()
        let isTaskCancelled = dispatcher.currentTask.map(dispatcher.isCancelled) ?? false
        let reason = reason ?? JournalRefusal.reason(for: error, inCancelledTask: isTaskCancelled)
        let wakes = contents.withLock { contents -> Bool in
            guard contents.isRecording else { return false }
            let refused = contents.appendRefusal(action, error: error, reason: reason, cause: cause, time: time)
            return writer?.write(refused) ?? false
        }
        if wakes { writer?.wake() }
    }

    /// Notes the state of the store an inline mutation changes, made now if it is its first need, and of
    /// the computed stores that follow it.
    private func noteStore(of mutation: StoreMutation, in dispatcher: Dispatcher) throws {
        guard let registration = dispatcher.registration(with: mutation.storeID) else { return }
        tracker.note(try dispatcher.instance(of: registration), order: registration.order)
        for dependent in dispatcher.state.withLock({ $0.index.computedDependents(of: [registration.id]) }) {
            tracker.note(try dispatcher.instance(of: dependent), order: dependent.order)
        }
    }

    /// Records an action that committed, with the changes `changes` works out and the step it was; called
    /// on the turn holder, in order.
    ///
    /// NB: the entry is made in the ring, in place: an entry is large, and copying one costs as much as the
    /// rest of recording it. Only a journal with a file copies it, for its writer.
    @inline(__always)
    private func record(
        _ action: () -> AnyAction, step: (serial: UInt64, cause: StepCause), changes: () -> JournalEntries.Changes
    ) {
        let time = Date.readingRealTimeClock()
        guard let writer else {
            return contents.withLock { contents in
                guard contents.isRecording else {
                    _ = changes()
                    return
                }
                contents.append(action(), step: step, time: time, changes: changes())
            }
        }
        // NB: the writer gets its copy straight from the ring, under the journal's lock, which guards its
        // backlog too, so that the entry is copied once and no second lock is taken; it is woken outside.
        let wakes = contents.withLock { contents -> Bool in
            guard contents.isRecording else { return false }
            contents.append(action(), step: step, time: time, changes: changes())
            return writer.write(contents.entries[contents.entries.count - 1])
        }
        if wakes { writer.wake() }
    }
}
