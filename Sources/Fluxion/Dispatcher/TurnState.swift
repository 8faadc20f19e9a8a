/// Who holds the dispatch turn, and what waits for it: a state machine with no locks and no user code.
///
/// One thread at a time holds the turn and runs actions; the actions it
/// dispatches meanwhile queue behind its own. The dispatcher keeps this value
/// in its guarded state; ``Admission`` decides where an arrival goes, and the
/// dispatcher records it here under the lock, then acts after unlocking —
/// decide under the lock, act outside it.
struct TurnState {
    /// The thread whose dispatch is running, if any.
    private(set) var holder: ThreadID? {
        didSet { publishedHolder.set(holder) }
    }
    /// `holder`, for a thread to ask without the lock whether it holds the turn.
    private let publishedHolder: AtomicThreadID
    /// Actions dispatched by the turn holder (or for it) while it runs one; FIFO.
    private var queue = ActionQueue()
    private var suspensions = 0
    /// Actions dispatched while suspended, from any thread, in order.
    private var suspended = ActionQueue()
    /// Whether the holder waits, inside a handler, for another thread to create a store.
    ///
    /// A factory running meanwhile may dispatch: its actions then queue behind
    /// the holder's, as if dispatched from its handler, instead of waiting for
    /// a turn that cannot end before the factory does.
    var holderAwaitsCreation = false
    /// Whether the holder holds the turn between actions (``Dispatcher/read(_:)``), rather than to run one:
    /// what it dispatches then waits for the suspensions to end, as any thread's would.
    var holderIsBetweenActions = false
    /// How many dispatches gave up their turn to wait for a store another thread creates.
    private var yieldedTurns = 0
    /// The threads waiting for the turn, first come first (see ``TurnLine``).
    private(set) var line = TurnLine()
    /// Whether the turn was handed to `holder`, first in line, as the last one ended, and it has not taken it
    /// yet: it waits to be woken, and nobody else can take the turn meanwhile.
    private(set) var isHandedOver = false
    /// Callers of `waitUntilDrained()`, each with the tracked task its code belongs to, if any: it does not wait
    /// for that one while it runs.
    private var drainWaiters: [(id: UInt64, task: TrackedTask?, continuation: CheckedContinuation<Void, Never>)] = []
    /// The drain waiters whose tasks were cancelled before they began to wait: they return at once.
    private var cancelledDrainWaiters: Set<UInt64> = []
    private var nextDrainWaiter: UInt64 = 0
    /// How many tracked tasks run: the dispatcher is not drained until they end.
    var taskCount = 0
    /// Whether dispatches from tracked tasks are held, in order, instead of running: while a journal shows the past.
    var holdsTaskDispatches = false
    /// Dispatches from tracked tasks held meanwhile; a drain does not wait for them.
    private var held = ActionQueue()

    /// Creates the turn of a dispatcher, which publishes its holder in `publishedHolder`.
    init(publishingHolderIn publishedHolder: AtomicThreadID = AtomicThreadID()) {
        self.publishedHolder = publishedHolder
    }

    var isSuspended: Bool { suspensions > 0 }

    /// Whether no action waits in the holder's queue.
    var isQueueEmpty: Bool { queue.isEmpty }

    /// Whether `thread` may act as the turn holder: it holds the turn, or runs a
    /// factory the holder waits for (`isCreatingForHolder`). A thread the turn was handed to does not, until
    /// it takes it.
    func admits(_ thread: ThreadID, isCreatingForHolder: Bool) -> Bool {
        (holder == thread && !isHandedOver) || (holder != nil && holderAwaitsCreation && isCreatingForHolder)
    }

    /// Whether `thread` may take the turn now: nobody holds it, or it was handed to `thread`.
    func isFree(for thread: ThreadID) -> Bool {
        holder == nil || (isHandedOver && holder == thread)
    }

    /// Queues an action behind the running step: the holder runs it before it gives the turn up.
    mutating func queueBehindHolder(_ action: QueuedAction) {
        queue.append(action)
    }

    /// Keeps an action until the last suspension's release.
    mutating func waitForRelease(_ action: QueuedAction) {
        suspended.append(action)
    }

    /// Takes the turn for `thread` if it is free, or was handed to it; `thread` leaves the line.
    @inline(__always)
    mutating func take(by thread: ThreadID) -> Bool {
        // NB: most often nobody waits: one comparison more than a free turn's (W1: 10 instructions out of line).
        guard holder == nil, line.isEmpty else { return takeWithThreadsInLine(by: thread) }
        holder = thread
        return true
    }

    /// ``take(by:)`` while threads wait in line, or the turn is held.
    private mutating func takeWithThreadsInLine(by thread: ThreadID) -> Bool {
        guard holder == nil else {
            guard isHandedOver, holder == thread else { return false }
            isHandedOver = false
            _ = line.leave(thread)
            return true
        }
        holder = thread
        _ = line.leave(thread)
        return true
    }

    /// Puts `thread`, which must wait for the turn another holds, in line (see ``TurnLine``).
    mutating func waitInLine(_ thread: ThreadID) {
        line.join(thread)
    }

    /// Takes `thread` out of the line, as it stops waiting for the turn (it queued its action, say), and
    /// gives up the turn if it was handed to it; whether anything changed, so that the others look again.
    mutating func leaveLine(_ thread: ThreadID) -> Bool {
        guard !line.isEmpty, line.leave(thread) else { return false }
        if isHandedOver, holder == thread {
            isHandedOver = false
            holder = nil
        }
        return true
    }

    /// Ends the holder's turn: it is free, or handed to the first in line when that one has waited long enough.
    @inline(__always)
    private mutating func giveUp() {
        guard line.isEmpty else { return giveUpToLine() }
        holder = nil
    }

    /// ``giveUp()`` while threads wait in line.
    private mutating func giveUpToLine() {
        guard let next = line.turnEnded() else {
            holder = nil
            return
        }
        holder = next
        isHandedOver = true
    }

    /// Queues actions behind the running one (a transaction's, once it commits).
    mutating func enqueue(_ actions: inout ActionQueue) {
        queue.append(contentsOf: &actions)
    }

    /// Keeps a tracked task's dispatch until ``releaseHeldFirst()`` or ``takeHeld()``, while ``holdsTaskDispatches``.
    mutating func hold(_ action: QueuedAction) {
        held.append(action)
    }

    /// Stops holding tasks' dispatches, and queues those held before anything queued meanwhile (the
    /// caller holds the turn); while suspended, they wait for the release instead.
    mutating func releaseHeldFirst() {
        holdsTaskDispatches = false
        guard !held.isEmpty else { return }
        guard suspensions == 0 else { return suspended.append(contentsOf: &held) }
        held.append(contentsOf: &queue)
        swap(&held, &queue)
    }

    /// Calls `body` with the tracked task of each dispatch still held, waiting for a release or queued: a
    /// cancellation reaches the task through them even once it ended.
    func visitTasksOfWaitingDispatches(_ body: (TrackedTask) -> Void) {
        for actions in [held, suspended, queue] {
            actions.visitActions { if !$0.isEffect, let task = $0.task { body(task) } }
        }
    }

    /// Stops holding, and returns the held actions, which will not run.
    mutating func takeHeld() -> ActionQueue {
        holdsTaskDispatches = false
        var taken = ActionQueue()
        swap(&taken, &held)
        return taken
    }

    /// The next queued action for the holder to run, keeping the turn; `nil` when none is queued.
    mutating func popQueued() -> QueuedAction? {
        queue.popFirst()
    }

    /// The next queued action for the holder to run, keeping the turn; or `nil`, and the turn is given up.
    ///
    /// - Parameter waiters: Set, when the turn is given up, to the drain waiters to resume.
    mutating func next(endingWith waiters: inout [CheckedContinuation<Void, Never>]) -> QueuedAction? {
        if let action = popQueued() { return action }
        end(resuming: &waiters)
        return nil
    }

    /// Gives the turn up, nothing being queued: it is free, or handed to the first in line (see ``giveUp()``).
    ///
    /// - Parameter waiters: Set to the drain waiters to resume.
    mutating func end(resuming waiters: inout [CheckedContinuation<Void, Never>]) {
        giveUp()
        waiters = takeDrainWaitersIfDrained()
    }

    /// Gives the turn up if no action is queued and no drain waiter waits; whether it did.
    mutating func endIfIdle() -> Bool {
        guard queue.isEmpty, drainWaiters.isEmpty else { return false }
        giveUp()
        return true
    }

    /// Gives the turn up while the holder waits for a store; returns its queue, to take back later.
    mutating func yield() -> ActionQueue {
        var kept = ActionQueue()
        swap(&kept, &queue)
        yieldedTurns += 1
        holder = nil
        return kept
    }

    /// Takes the turn back after ``yield()``, with the queue kept; `false` while another holds it. It is the
    /// same turn, going on: it does not wait in line.
    mutating func resume(_ thread: ThreadID, with kept: inout ActionQueue) -> Bool {
        guard holder == nil else { return false }
        holder = thread
        yieldedTurns -= 1
        swap(&kept, &queue)  // NB: whoever held the turn meanwhile emptied `queue`
        return true
    }

    mutating func beginSuspension() {
        suspensions += 1
    }

    /// Ends a suspension. The last one moves the waiting actions to the queue;
    /// returns whether `thread` took the turn to run them, and the drain waiters to resume.
    mutating func endSuspension(by thread: ThreadID) -> (runsQueue: Bool, waiters: [CheckedContinuation<Void, Never>]) {
        suspensions -= 1
        guard suspensions == 0, !suspended.isEmpty else { return (false, takeDrainWaitersIfDrained()) }
        let runsQueue = take(by: thread)
        // NB: while the past is shown, tasks' dispatches that waited are held for the present, as new ones are:
        // before those held since, which were made after them (a task's dispatches keep their order).
        if holdsTaskDispatches {
            var waited = ActionQueue()
            suspended.move(to: &waited) { $0.task != nil }
            waited.append(contentsOf: &held)
            swap(&waited, &held)
        }
        queue.append(contentsOf: &suspended)
        return (runsQueue, [])
    }

    /// Adds a drain waiter; `false` when nothing runs or waits, so it should resume at once.
    ///
    /// - Parameter task: The tracked task the waiting code belongs to (its own code, its child tasks', or a
    ///   plain `Task`'s it started): the waiter waits for every other task, and for that one only once it has
    ///   ended — which it has, for a plain `Task` that outlives it. Read under the dispatcher's lock, as the
    ///   registry's fields are.
    mutating func addDrainWaiter(
        _ waiter: CheckedContinuation<Void, Never>, id: UInt64, belongingTo task: TrackedTask? = nil
    ) -> Bool {
        guard cancelledDrainWaiters.remove(id) == nil else { return false }
        guard !isDrained(for: task) else { return false }
        drainWaiters.append((id, task, waiter))
        return true
    }

    /// Whether nothing runs or waits, but for `task` while it runs.
    private func isDrained(for task: TrackedTask?) -> Bool {
        let own = task?.isRunning == true ? 1 : 0
        return holder == nil && yieldedTurns == 0 && suspended.isEmpty && taskCount <= own
    }

    /// A number for a drain waiter, to cancel it by.
    mutating func drainWaiterID() -> UInt64 {
        defer { nextDrainWaiter &+= 1 }
        return nextDrainWaiter
    }

    /// Stops the drain waiter `id` waiting: returns its continuation to resume, or, when it has not begun
    /// to wait yet, makes it return as soon as it does.
    mutating func cancelDrainWaiter(_ id: UInt64) -> CheckedContinuation<Void, Never>? {
        guard let index = drainWaiters.firstIndex(where: { $0.id == id }) else {
            cancelledDrainWaiters.insert(id)
            return nil
        }
        return drainWaiters.remove(at: index).continuation
    }

    /// Whether a caller of `waitUntilDrained()` waits.
    var hasDrainWaiters: Bool { !drainWaiters.isEmpty }

    /// The drain waiters to resume, if nothing runs or waits any more.
    mutating func takeDrainWaitersIfDrained() -> [CheckedContinuation<Void, Never>] {
        guard !drainWaiters.isEmpty, holder == nil, yieldedTurns == 0, suspended.isEmpty, taskCount <= 1 else {
            return []
        }
        let drained = drainWaiters.filter { isDrained(for: $0.task) }
        guard !drained.isEmpty else { return [] }
        drainWaiters.removeAll { waiter in drained.contains { $0.id == waiter.id } }
        return drained.map(\.continuation)
    }
}
