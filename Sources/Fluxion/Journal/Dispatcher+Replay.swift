// What a replay needs of the dispatcher: that it replays the journal alone. No task starts, and no
// action a replayed step's handlers, observers or middleware queue runs: the journal has its own
// line for each one it recorded, replayed at its recorded place.
extension Dispatcher {
    /// Runs `body`, a replay: no tracked task starts and no action a step queues runs meanwhile.
    ///
    /// - Returns: What `body` returned, and what was left out while it ran.
    func replaying<Value>(_ body: () throws -> Value) rethrows -> (value: Value, omitted: ReplayOmissions) {
        try withEffectsPaused {
            let before = state.withLock { state in
                isReplaying.set(true)
                return state.replayOmissions
            }
            // NB: the last replay to end clears the flag: `effectPauses` counts the replays running.
            defer { state.withLock { if $0.effectPauses == 1 { isReplaying.set(false) } } }
            let value = try body()
            let after = state.withLock { $0.replayOmissions }
            return (value, after.since(before))
        }
    }

    /// Counts an action a step queued while a replay ran, left out.
    func countFollowUpLeftOut() {
        state.withLock { $0.replayOmissions.followUps += 1 }
    }
}

/// What replays left out: the actions steps queued, and the tasks asked for outside any step.
///
/// A dispatcher counts them from its start; a replay reports the difference.
struct ReplayOmissions: Equatable {
    /// Actions a replayed step's handlers, observers or middleware queued, not run.
    var followUps = 0
    /// Tasks asked for with `dispatchTask` outside any step (a store factory's), not started.
    var tasks = 0

    /// What was left out since `earlier`.
    func since(_ earlier: Self) -> Self {
        Self(followUps: followUps - earlier.followUps, tasks: tasks - earlier.tasks)
    }
}
