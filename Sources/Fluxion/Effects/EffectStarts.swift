/// The effects on their way from a handler to their tasks without the turn's queue: the turn holder's alone.
///
/// An effect asked for while its transaction has queued nothing else waits in ``requested``. If the
/// transaction commits while the turn's queue is empty, the commit tracks it, in the lock it takes
/// anyway (from then on a cancellation reaches it, and `waitUntilDrained` waits for it), and moves it to
/// ``committed``. Anything else keeps the turn's queue and its order: an effect asked for after a queued
/// action, or committed behind queued actions, is queued as a start of its own.
///
/// No task's work begins before the turn is given up: when the turn's queue has more to run, the effects
/// tracked meanwhile wait in ``awaiting`` (and the tasks `dispatchTask` started from a step, in
/// ``awaitingGates``) until it is empty, so that a cancellation from a later step of the same turn — an
/// observer's dispatch that cancels, say — keeps their work from ever running. Most often nothing else is
/// queued: the holder starts the committed effects at once, and attaches them in the lock that ends the turn.
struct EffectStarts {
    /// Asked for by the open transaction, nothing else queued before them: they start if it commits.
    var requested: ContiguousArray<TrackedTask> = []
    /// Tracked as their transaction committed; their tasks start before the turn is given up.
    var committed: ContiguousArray<TrackedTask> = []
    /// Tracked, and told to the observers of task events; their tasks start once nothing is queued.
    var awaiting: ContiguousArray<TrackedTask> = []
    /// Tasks `dispatchTask` started from a step, tracked; their gates open once nothing is queued.
    var awaitingGates: [(task: TrackedTask, keeper: TaskGateKeeper)] = []
    /// Whether the holder queued work behind the step since the commit that tracked ``committed``: their
    /// tasks then wait for the queue to be empty.
    var defersStarts = false
    /// What the commit read under the lock: the task starter, and the observers of task events.
    var starter: (any TaskStarter)?
    var observers: [@Sendable (TaskEvent) -> Void] = []
    /// The registry's count of cancellations before the commit: the holder compares it with the count when it
    /// starts the tasks, to tell whether a cancellation came in between (the task then never runs its work).
    var cancellations: UInt64 = 0
}

/// The tasks of committed effects the turn holder started, for its next lock to attach; kept by the holder's
/// drain, not by the transaction, as the lock that attaches them may end the turn: they are released, and the
/// ones cancelled before they were attached are cancelled, after that lock, outside it.
struct StartedEffects {
    // NB: most often one effect starts: it needs no array, and no optional of a struct, whose copies and
    // destruction go through generic witnesses.
    private var task: TrackedTask?
    private var started: Task<Void, any Error>?
    /// Whether it was cancelled before it was attached: its `Task` is cancelled once unlocked.
    private var cancels = false
    private var more: [(task: TrackedTask, started: Task<Void, any Error>, cancels: Bool)] = []

    var isEmpty: Bool { task == nil }

    mutating func append(_ task: TrackedTask, _ started: Task<Void, any Error>) {
        if self.task == nil {
            (self.task, self.started) = (task, started)
        } else {
            more.append((task, started, false))
        }
    }

    /// Records how to cancel each task; call with the dispatcher's lock held.
    mutating func attach(in tasks: inout TaskRegistry) {
        guard let task, let started else { return }
        cancels = tasks.attach(effect: started, to: task)
        for index in more.indices {
            more[index].cancels = tasks.attach(effect: more[index].started, to: more[index].task)
        }
    }

    /// Cancels the tasks that were cancelled before they were attached, and lets them all go; call once unlocked.
    mutating func finish() {
        if cancels { started?.cancel() }
        for entry in more where entry.cancels { entry.started.cancel() }
        (task, started, cancels) = (nil, nil, false)
        if !more.isEmpty { more = [] }
    }
}
