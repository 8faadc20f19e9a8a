/// A task a dispatcher tracks: the running code's, for a dispatch to check, and what cancellation is about.
///
/// Cancellation is a fact about the task, kept here, not in its registry entry: the dispatches the task
/// held, queued or left to plain child tasks are refused after it ended too, and the tasks it started
/// inherit it. A plain `Task` its code starts inherits the task-local ``current``, and so the task's
/// identity, consistently: its dispatches' cause and cancellation, and, for `waitUntilDrained()`, the task
/// it does not wait for while that runs (``isRunning``): it never counts itself as a tracked task.
/// A class: the task-local value and every check of it copy a reference, not its fields.
/// An effect's is also its tag and its record from its handler to its end: its work, and how it starts
/// (one allocation for all three).
final class TrackedTask: EffectTag, @unchecked Sendable {  // registry fields: its dispatcher's state lock (see below)
    let dispatcher: ObjectIdentifier
    /// Whether it is an effect: a task a step asked for, which is its own tag.
    private let isEffect: Bool
    /// The tracked task that started it: cancelling that one cancels this one.
    let parent: TrackedTask?
    /// How many cancellations had been asked for when it was asked for: those after it reach it before it
    /// is tracked (see ``TaskRegistry``).
    let requestSerial: UInt64

    // NB: guarded by the dispatcher's state lock: the registry's fields.
    /// Whether it was cancelled, itself.
    var isCancelledItself = false
    /// Whether it was cancelled before it started: its work never runs. Set before its `Task` exists.
    var startsCancelled = false
    /// Whether it is tracked and has not ended.
    var isRunning = false
    /// The tasks tracked before and after it, while it runs (see ``TaskRegistry``): the one before is
    /// kept by the registry's list (as its `next`, or its `first`), so its link to it holds no reference count.
    var previous: Unmanaged<TrackedTask>?
    var next: TrackedTask?
    /// Cancels its `Task`, once attached: an effect's, or another's (kept apart, as an existential costs
    /// a copy through its type's witnesses each time it is stored).
    var effectHandle: Task<Void, any Error>?
    var handle: (any TaskCancelling)?

    // NB: its start: set by the turn holder (or, outside any step, its starter) before its work runs, then
    // touched only by its task.
    /// The dispatcher its work runs for, kept from its start until its work ended: the task lets go of it
    /// before it tells the drain waiters, so that nothing of the dispatcher outlives `shutdown()`.
    var owner: Dispatcher?
    /// The effect's work; released when its task ends.
    var work: (@Sendable (Dispatcher) async throws -> Void)?
    let priority: TaskPriority?
    let cancellingInFlight: Bool
    /// Whether it did not start: effects were paused (a replay) when its step committed.
    var isSkipped = false

    /// A task under `id`, asked for when `requestSerial` cancellations had been; with `effectOf`, the effect
    /// it is: the step that asked for it, its place among that step's effects, and the step's action.
    init(
        dispatcher: ObjectIdentifier, id: TaskKey?, requestSerial: UInt64,
        effectOf place: (step: UInt64, index: Int, action: String)? = nil, parent: TrackedTask? = nil,
        work: (@Sendable (Dispatcher) async throws -> Void)? = nil, priority: TaskPriority? = nil,
        cancellingInFlight: Bool = false
    ) {
        self.dispatcher = dispatcher
        isEffect = place != nil
        self.parent = parent
        self.requestSerial = requestSerial
        self.work = work
        self.priority = priority
        self.cancellingInFlight = cancellingInFlight
        super.init(step: place?.step ?? 0, index: place?.index ?? 0, id: id, action: place?.action ?? "")
    }

    /// Which effect it is; `nil` for a task started outside any step.
    var effect: EffectTag? {
        isEffect ? self : nil
    }

    /// Whether it, or a task that started it, was cancelled.
    var isCancelled: Bool {
        isCancelledItself || parent?.isCancelled == true
    }

    @TaskLocal static var current: TrackedTask?

    /// Whether any task of any dispatcher has bound ``current``: until one does, no code sees it bound,
    /// and reading it, which costs a tenth of a recorded dispatch, is skipped.
    ///
    /// NB: it stays set: a task that a tracked task starts inherits `current`, and may outlive it.
    static let wasEverBound = AtomicFlag()

    /// `current`, read only once some task has bound it.
    static var currentIfAny: TrackedTask? {
        wasEverBound.isSet ? current : nil
    }
}
