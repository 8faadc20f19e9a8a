/// The asynchronous work a dispatcher started with `dispatchTask`: what runs, under which id, what was cancelled.
///
/// Kept in the dispatcher's guarded state, so that starting, ending and
/// cancelling work are ordered with the dispatches the work makes.
struct TaskRegistry {
    private struct Entry {
        let task: TrackedTask
        /// Cancels the task; `nil` until the task exists.
        var cancel: (@Sendable () -> Void)?
    }

    private var entries: [UInt64: Entry] = [:]
    /// Tasks a step asked for whose start is still queued behind it: a cancellation reaches them too.
    private var queuedStarts: [TrackedTask] = []
    private var nextToken: UInt64 = 0
    /// Whether a task was ever cancelled: until one is, no dispatch need check its task.
    ///
    /// NB: it stays set: a cancelled task's dispatches are refused after it ended, and its plain child tasks'.
    private(set) var hasCancelled = false

    /// How many tasks run.
    var count: Int { entries.count }

    /// Records a task whose start is queued behind the running step: cancelling its id cancels it before it starts.
    mutating func queueStart(of task: TrackedTask) {
        queuedStarts.append(task)
    }

    /// Records `task` about to start; with `cancellingInFlight`, cancels the others of its id.
    ///
    /// - Returns: The cancellations to run once unlocked.
    mutating func begin(_ task: TrackedTask, cancellingInFlight: Bool) -> [@Sendable () -> Void] {
        let id = task.id
        let cancellations = cancellingInFlight && id != nil ? cancel(queuedStarts: false) { $0 == id } : []
        forgetStart(of: task)
        task.token = nextToken
        task.startsCancelled = task.isCancelled
        nextToken += 1
        entries[task.token] = Entry(task: task)
        return cancellations
    }

    /// Forgets a queued start that will not happen (effects are paused, or its step was dropped).
    mutating func forgetStart(of task: TrackedTask) {
        if let index = queuedStarts.firstIndex(where: { $0 === task }) { queuedStarts.remove(at: index) }
    }

    /// Records how to cancel the task of `token`; `true` when it was cancelled before it existed.
    mutating func attach(_ cancel: @escaping @Sendable () -> Void, to token: UInt64) -> Bool {
        guard let index = entries.index(forKey: token) else { return false }  // NB: the task has ended already
        entries.values[index].cancel = cancel
        return entries.values[index].task.isCancelled
    }

    /// Forgets an ended task; the task itself keeps whether it was cancelled.
    mutating func end(_ token: UInt64) {
        entries.removeValue(forKey: token)
    }

    /// Marks the tasks whose ids `matches` picks as cancelled, and the tasks they started; returns their
    /// cancellations, to run once unlocked. Queued starts it picks are cancelled too, unless `queuedStarts`
    /// is `false` (a `cancelInFlight` reaches only the tasks running).
    mutating func cancel(queuedStarts cancelsQueued: Bool = true, where matches: (TaskKey?) -> Bool)
        -> [@Sendable () -> Void]
    {
        var cancellations: [@Sendable () -> Void] = []
        // NB: a task starts after the task that started it, so its token is larger: one pass in order suffices.
        for token in entries.keys.sorted() {
            guard let entry = entries[token], !entry.task.isCancelledItself else { continue }
            // NB: a task whose parent is cancelled now is cancelled itself, so that its `Task` is cancelled too.
            guard matches(entry.task.id) || entry.task.isCancelled else { continue }
            entry.task.isCancelledItself = true
            hasCancelled = true
            if let cancel = entry.cancel { cancellations.append(cancel) }
        }
        if cancelsQueued {
            for task in queuedStarts where matches(task.id) {
                task.isCancelledItself = true
                hasCancelled = true
            }
        }
        return cancellations
    }

    /// Whether the task of `token`, still running, was cancelled.
    func isCancelled(_ token: UInt64) -> Bool {
        entries[token]?.task.isCancelled == true
    }
}

/// A task id as the registry keeps it: any `Hashable & Sendable` value.
struct TaskKey: Hashable, @unchecked Sendable {  // NB: `base` only ever wraps a `Hashable & Sendable` value
    private let base: AnyHashable
    /// The id as it was given.
    let value: any Hashable & Sendable

    init(_ id: some Hashable & Sendable) {
        base = AnyHashable(id)
        value = id
    }

    static func == (lhs: TaskKey, rhs: TaskKey) -> Bool { lhs.base == rhs.base }

    func hash(into hasher: inout Hasher) { hasher.combine(base) }
}

/// A task a dispatcher tracks: the running code's, for a dispatch to check, and what cancellation is about.
///
/// Cancellation is a fact about the task, kept here, not in its registry entry: the dispatches the task
/// held, queued or left to plain child tasks are refused after it ended too, and the tasks it started
/// inherit it. A class: the task-local value and every check of it copy a reference, not its fields.
final class TrackedTask: @unchecked Sendable {  // `token`, `isCancelledItself`: guarded by its dispatcher's state lock
    let dispatcher: ObjectIdentifier
    /// Its key in the registry, given when it starts.
    var token: UInt64 = 0
    /// The id the task was started under.
    let id: TaskKey?
    /// Which effect the task is; `nil` for a task started outside any step.
    let effect: EffectTag?
    /// The tracked task that started it: cancelling that one cancels this one.
    let parent: TrackedTask?
    /// Whether it was cancelled, itself.
    var isCancelledItself = false
    /// Whether it was cancelled before it started: its work never runs. Set before its `Task` exists.
    var startsCancelled = false

    init(dispatcher: ObjectIdentifier, id: TaskKey?, effect: EffectTag?, parent: TrackedTask? = nil) {
        self.dispatcher = dispatcher
        self.id = id
        self.effect = effect
        self.parent = parent
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
