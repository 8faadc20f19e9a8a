/// The asynchronous work a dispatcher started with `dispatchTask`: what runs, under which id, what was cancelled.
///
/// Kept in the dispatcher's guarded state, so that starting, ending and
/// cancelling work are ordered with the dispatches the work makes. The
/// running tasks are linked through themselves, in the order they started:
/// registering and forgetting one costs no allocation and no hashing.
///
/// One cancellation reaches a task in every state: asked for by a step that has not committed yet (through
/// ``recent``, which the commit consults in the lock it takes anyway), tracked but not started, running,
/// and, through the task's own flag, after it ended (its held and waiting dispatches are refused).
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
    /// How many cancellations were asked for: each call of a cancelling spelling, and each `cancelInFlight`
    /// that cancels. A task reads it when it is asked for (``TrackedTask/requestSerial``), so that the commit
    /// tells which cancellations came after it; the turn holder compares two readings to tell whether one came
    /// in between.
    private(set) var cancellations: UInt64 = 0
    /// The cancellations asked for while a turn was held: the tasks that turn's running step asked for are not
    /// tracked yet, and its commit checks each against them (``reachRequested(_:)``).
    private var recent: [Cancellation] = []
    /// Whether the dispatcher shut down: every task is cancelled, those asked for afterwards too.
    private(set) var isClosed = false

    /// How many tasks run.
    private(set) var count = 0

    /// A cancellation a step's commit must still apply to the tasks it asked for before it.
    private struct Cancellation {
        /// Its place among the cancellations (``TaskRegistry/cancellations`` after it).
        let serial: UInt64
        /// The id it cancels; `nil` cancels every task.
        let id: TaskKey?

        func reaches(_ task: TrackedTask) -> Bool {
            serial > task.requestSerial && (id == nil || id == task.id)
        }
    }

    /// Records a task whose start is queued behind the running step: cancelling its id cancels it before it starts.
    mutating func queueStart(of task: TrackedTask) {
        if !recent.isEmpty { reachRequested(task) }
        queuedStarts.append(task)
    }

    /// Records `task` about to start; with `cancellingInFlight`, cancels the others of its id.
    ///
    /// - Returns: The cancellations to run once unlocked.
    mutating func begin(_ task: TrackedTask, cancellingInFlight: Bool) -> [any TaskCancelling] {
        let id = task.id
        // NB: most often nothing was cancelled while it was asked for: the test costs no call.
        if !recent.isEmpty { reachRequested(task) }
        let handles = cancellingInFlight && id != nil ? cancel(id, queuedStarts: false) : []
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
        return handles
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

    /// Marks the tasks under `id` (every task for `nil`) as cancelled, and the tasks they started; returns their
    /// cancellations, to run once unlocked. It reaches the tasks running, those tracked whose `Task` has not
    /// started (they never run their work), and the queued starts, unless `queuedStarts` is `false` (a
    /// `cancelInFlight`, or a step's `effects.cancel(id:)` in its place, reaches only the tasks tracked).
    /// With `recording`, the tasks the running step asked for and has not committed are reached at its commit.
    mutating func cancel(_ id: TaskKey?, queuedStarts cancelsQueued: Bool = true, recording: Bool = false)
        -> [any TaskCancelling]
    {
        cancellations &+= 1
        hasCancelled = true
        if recording { recent.append(Cancellation(serial: cancellations, id: id)) }
        var handles: [any TaskCancelling] = []
        // NB: a task starts after the task that started it, so it comes later in the list: one pass suffices.
        var task = first
        while let running = task {
            task = running.next
            guard !running.isCancelledItself else { continue }
            // NB: a task whose parent is cancelled now is cancelled itself, so that its `Task` is cancelled too.
            guard id == nil || running.id == id || running.isCancelled else { continue }
            mark(running)
            if let handle = running.effectHandle {
                handles.append(handle)
            } else if let handle = running.handle {
                handles.append(handle)
            }
        }
        if cancelsQueued {
            for task in queuedStarts where id == nil || task.id == id { mark(task) }
        }
        return handles
    }

    /// Marks `task`, which ended, or made a dispatch that still waits, as cancelled if `id` picks it (every
    /// task for `nil`): the dispatches it left held or waiting are refused when they would run.
    mutating func reachEnded(_ task: TrackedTask, by id: TaskKey?) {
        if !task.isCancelledItself, id == nil || task.id == id { mark(task) }
    }

    /// Cancels every task, and every task asked for from now on: the dispatcher shuts down.
    mutating func close() -> [any TaskCancelling] {
        isClosed = true
        let handles = cancel(nil)  // NB: the dispatcher reaches the tasks of the waiting dispatches too
        recent.append(Cancellation(serial: .max, id: nil))
        return handles
    }

    /// Marks `task`, which a step asked for before its commit, as cancelled if a cancellation of its id (or of
    /// every task) was asked for after it, or the dispatcher shut down.
    mutating func reachRequested(_ task: TrackedTask) {
        for cancellation in recent where cancellation.reaches(task) {
            return mark(task)
        }
    }

    /// Forgets the cancellations the tasks asked for so far have been checked against: no step that asked for
    /// a task before them is still uncommitted.
    @inline(__always)  // NB: most often there are none: the test costs no call
    mutating func forgetRecent() {
        if !recent.isEmpty { forgetEveryRecent() }
    }

    private mutating func forgetEveryRecent() {
        recent.removeAll(keepingCapacity: true)
        if isClosed { recent.append(Cancellation(serial: .max, id: nil)) }
    }

    private mutating func mark(_ task: TrackedTask) {
        task.isCancelledItself = true
        hasCancelled = true
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
