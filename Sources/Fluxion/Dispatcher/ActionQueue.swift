/// An action waiting for its turn, with its payload type kept; or an effect waiting to start.
struct QueuedAction {
    /// The action with its payload type erased, for hooks; for an effect, the action that asked for it.
    let action: AnyAction
    /// Why the action runs: the step that queued it, an effect, or a caller outside.
    let cause: StepCause
    /// The tracked task that dispatched it while it could not run (suspended, or held): it is refused
    /// if that task was cancelled meanwhile, even if the task has ended. For an effect, the task it starts.
    let task: TrackedTask?
    /// Whether it starts an effect instead of running an action: no step of its own.
    let isEffect: Bool
    private let runner: (Dispatcher) throws -> Void

    /// An action, as the dispatch that queues it has it: typed, or `untyped`, its payload opened.
    init<Payload: Sendable>(
        _ name: String, payload: Payload, error: (any Error)?, untyped: UnsafePointer<AnyAction>?, cause: StepCause,
        task: TrackedTask?
    ) {
        if let untyped {
            self.init(untyped.pointee, cause: cause, task: task)
        } else {
            self.init(name: name, payload: payload, error: error, cause: cause, task: task)
        }
    }

    /// A typed action.
    init<Payload: Sendable>(name: String, payload: Payload, error: (any Error)?, cause: StepCause, task: TrackedTask?) {
        action = AnyAction(name: name, payload: payload, error: error)
        self.cause = cause
        self.task = task
        isEffect = false
        runner = { dispatcher in try dispatcher.forward(name, payload: payload, error: error, untyped: nil) }
    }

    /// An untyped action.
    init(_ action: AnyAction, cause: StepCause, task: TrackedTask?) {
        self.action = action
        self.cause = cause
        self.task = task
        isEffect = false
        runner = { dispatcher in try dispatcher.forward(action) }
    }

    /// An effect the step `cause` names asked for while `action` ran: `start` starts it.
    init(
        effectOf action: AnyAction, cause: StepCause, starting task: TrackedTask, start: @escaping (Dispatcher) -> Void
    ) {
        self.action = action
        self.cause = cause
        self.task = task
        isEffect = true
        runner = start
    }

    /// The start of an effect the step of its tag asked for, queued behind what its step queued before it.
    init(startingEffect task: TrackedTask) {
        let tag = task.effect.unsafelyUnwrapped  // NB: an effect's task has a tag
        action = AnyAction(name: tag.action)
        cause = .queued(by: tag.step)
        self.task = task
        isEffect = true
        runner = { $0.startQueued(effect: task) }
    }

    /// A cancellation the step `cause` names asked for while `action` ran: `cancel` carries it out.
    init(cancellationOf action: AnyAction, cause: StepCause, cancel: @escaping (Dispatcher) -> Void) {
        self.action = action
        self.cause = cause
        task = nil
        isEffect = true
        runner = cancel
    }

    /// Runs the action through `dispatcher`, which must be holding the turn, as a step of its own; or
    /// starts the effect.
    func perform(on dispatcher: Dispatcher) throws {
        guard !isEffect else { return try runner(dispatcher) }
        // NB: a replay runs no action a step queued: the journal's own line for it replays in its place.
        if dispatcher.isReplaying.isSet, case .queued = cause { return dispatcher.countFollowUpLeftOut() }
        var facts = Admission.Facts()
        facts.isInCancelledTask = task.map(dispatcher.isCancelled) ?? false
        if case .refuse = Admission.decide(.released, facts), let task {
            dispatcher.report(
                TaskError(.refused, taskID: task.id?.value, action: action.name, error: CancellationError()))
            return
        }
        let began = dispatcher.steps.begin(cause)
        defer { dispatcher.steps.end(began) }
        try runner(dispatcher)
    }
}

/// A first-in, first-out queue of actions.
///
/// Popping takes the action out of its slot, so the queue never holds on to
/// an action it handed out: releasing an action may run user code (a payload's
/// `deinit`), which must happen where its taker releases it, outside any lock.
struct ActionQueue {
    private var items: [QueuedAction?] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }

    mutating func append(_ action: QueuedAction) {
        items.append(action)
    }

    mutating func popFirst() -> QueuedAction? {
        guard head < items.count else { return nil }
        let first = items[head].take()
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)  // NB: only empty slots are left
            head = 0
        }
        return first
    }

    /// Moves every action of `other` to the end of this queue, in order.
    /// Calls `body` with each action still queued, in order.
    func visitActions(_ body: (QueuedAction) -> Void) {
        for index in head..<items.count { if let action = items[index] { body(action) } }
    }

    /// Moves the actions `isMoved` picks to the end of `other`, in order; keeps the rest, in order.
    mutating func move(to other: inout ActionQueue, where isMoved: (QueuedAction) -> Bool) {
        var kept = ActionQueue()
        while let action = popFirst() {
            if isMoved(action) { other.append(action) } else { kept.append(action) }
        }
        self = kept
    }

    mutating func append(contentsOf other: inout ActionQueue) {
        while let action = other.popFirst() { append(action) }
    }
}
