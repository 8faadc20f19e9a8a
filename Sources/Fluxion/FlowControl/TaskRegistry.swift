/// The asynchronous work a dispatcher started with `dispatchTask`: what runs, under which id, what was cancelled.
///
/// Kept in the dispatcher's guarded state, so that starting, ending and
/// cancelling work are ordered with the dispatches the work makes. The
/// running tasks are linked through themselves, in the order they started:
/// registering and forgetting one costs no allocation and no hashing.
struct TaskRegistry {
    /// The running tasks, first started first; each links to the next through ``TrackedTask/next``.
    private var first: TrackedTask?
    private var last: TrackedTask?
    /// Tasks a step asked for whose start is still queued behind it: a cancellation reaches them too.
    private var queuedStarts: [TrackedTask] = []
    /// Whether a task was ever cancelled: until one is, no dispatch need check its task.
    ///
    /// NB: it stays set: a cancelled task's dispatches are refused after it ended, and its plain child tasks'.
    private(set) var hasCancelled = false
    /// How many times a cancellation reached a task: a registered task whose own `Task` does not exist
    /// yet compares two readings to tell whether it must start cancelled.
    private(set) var cancellations: UInt64 = 0

    /// How many tasks run.
    private(set) var count = 0

    /// Records a task whose start is queued behind the running step: cancelling its id cancels it before it starts.
    mutating func queueStart(of task: TrackedTask) {
        queuedStarts.append(task)
    }

    /// Records `task` about to start; with `cancellingInFlight`, cancels the others of its id.
    ///
    /// - Returns: The cancellations to run once unlocked.
    mutating func begin(_ task: TrackedTask, cancellingInFlight: Bool) -> [any TaskCancelling] {
        let id = task.id
        let cancellations = cancellingInFlight && id != nil ? cancel(queuedStarts: false) { $0 == id } : []
        if !queuedStarts.isEmpty { forgetStart(of: task) }
        task.startsCancelled = task.isCancelled
        task.isRunning = true
        if let last {
            last.next = task
            task.previous = Unmanaged.passUnretained(last)
        } else {
            first = task
        }
        last = task
        count += 1
        return cancellations
    }

    /// Forgets a queued start that will not happen (effects are paused, or its step was dropped).
    mutating func forgetStart(of task: TrackedTask) {
        if let index = queuedStarts.firstIndex(where: { $0 === task }) { queuedStarts.remove(at: index) }
    }

    /// Records how to cancel `task`; `true` when it was cancelled before its `Task` existed.
    mutating func attach(_ handle: any TaskCancelling, to task: TrackedTask) -> Bool {
        guard task.isRunning else { return false }  // NB: the task has ended already
        task.handle = handle
        return task.isCancelled
    }

    /// Records how to cancel the effect `task`; `true` when it was cancelled before its `Task` existed.
    mutating func attach(effect handle: Task<Void, any Error>, to task: TrackedTask) -> Bool {
        guard task.isRunning else { return false }  // NB: the task has ended already
        task.effectHandle = handle
        return task.isCancelled
    }

    /// Forgets an ended task; the task itself keeps whether it was cancelled.
    mutating func end(_ task: TrackedTask) {
        guard task.isRunning else { return }
        task.isRunning = false
        let next = task.next
        task.next = nil
        if let previous = task.previous {
            previous._withUnsafeGuaranteedRef { $0.next = next }
        } else {
            first = next
        }
        if let next { next.previous = task.previous } else { last = task.previous?.takeUnretainedValue() }
        task.previous = nil
        if task.effectHandle != nil { task.effectHandle = nil } else { task.handle = nil }
        count -= 1
    }

    /// Marks the tasks whose ids `matches` picks as cancelled, and the tasks they started; returns their
    /// cancellations, to run once unlocked. Queued starts it picks are cancelled too, unless `queuedStarts`
    /// is `false` (a `cancelInFlight` reaches only the tasks running).
    mutating func cancel(queuedStarts cancelsQueued: Bool = true, where matches: (TaskKey?) -> Bool)
        -> [any TaskCancelling]
    {
        var handles: [any TaskCancelling] = []
        // NB: a task starts after the task that started it, so it comes later in the list: one pass suffices.
        var task = first
        while let running = task {
            task = running.next
            guard !running.isCancelledItself else { continue }
            // NB: a task whose parent is cancelled now is cancelled itself, so that its `Task` is cancelled too.
            guard matches(running.id) || running.isCancelled else { continue }
            mark(running)
            if let handle = running.effectHandle {
                handles.append(handle)
            } else if let handle = running.handle {
                handles.append(handle)
            }
        }
        if cancelsQueued {
            for task in queuedStarts where matches(task.id) { mark(task) }
        }
        return handles
    }

    private mutating func mark(_ task: TrackedTask) {
        task.isCancelledItself = true
        hasCancelled = true
        cancellations &+= 1
    }

    /// Whether `task`, still running, was cancelled.
    func isCancelled(_ task: TrackedTask) -> Bool {
        task.isRunning && task.isCancelled
    }
}

/// What cancels a tracked task's `Task`, kept without a closure (which would cost an allocation).
protocol TaskCancelling: Sendable {
    func cancel()
}

extension Task: TaskCancelling {}

/// A task id as the registry keeps it: any `Hashable & Sendable` value.
///
/// A class: a task's id is copied into its tag, its tracked task and each check of it, and an optional
/// reference costs a retain where an optional of a struct holding existentials costs calls through its
/// type's value witnesses.
final class TaskKey: Hashable, @unchecked Sendable {  // NB: immutable; `base` wraps a `Hashable & Sendable`
    private let base: AnyHashable
    /// The id as it was given.
    let value: any Hashable & Sendable

    init(_ id: some Hashable & Sendable) {
        base = AnyHashable(id)
        value = id
    }

    static func == (lhs: TaskKey, rhs: TaskKey) -> Bool { lhs === rhs || lhs.base == rhs.base }

    func hash(into hasher: inout Hasher) { hasher.combine(base) }
}
