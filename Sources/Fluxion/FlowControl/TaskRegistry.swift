/// The asynchronous work a dispatcher started with `dispatchTask`: what runs, under which id, what was cancelled.
///
/// Kept in the dispatcher's guarded state, so that starting, ending and
/// cancelling work are ordered with the dispatches the work makes.
struct TaskRegistry {
    private struct Entry {
        let id: TaskKey?
        /// The task that started it: cancelling that one cancels this one too.
        let parent: UInt64?
        /// Cancels the task; `nil` until the task exists.
        var cancel: (@Sendable () -> Void)?
        var isCancelled = false
    }

    private var entries: [UInt64: Entry] = [:]
    private var nextToken: UInt64 = 0
    /// How many cancelled tasks still run: only while some do must a dispatch check its task.
    private(set) var cancelledCount = 0

    /// How many tasks run.
    var count: Int { entries.count }

    /// Records a task about to start under `id`; with `cancellingInFlight`, cancels the others of that id.
    ///
    /// - Returns: The task's token, and the cancellations to run once unlocked.
    mutating func begin(id: TaskKey?, cancellingInFlight: Bool, parent: UInt64? = nil) -> (
        UInt64, [@Sendable () -> Void]
    ) {
        let cancellations = cancellingInFlight && id != nil ? cancel { $0 == id } : []
        let token = nextToken
        nextToken += 1
        // NB: a task started by a task cancelled meanwhile is cancelled from the start.
        let isCancelled = parent.map { entries[$0]?.isCancelled == true } ?? false
        if isCancelled { cancelledCount += 1 }
        entries[token] = Entry(id: id, parent: parent, isCancelled: isCancelled)
        return (token, cancellations)
    }

    /// Records how to cancel the task of `token`; `true` when it was cancelled before it existed.
    mutating func attach(_ cancel: @escaping @Sendable () -> Void, to token: UInt64) -> Bool {
        guard let index = entries.index(forKey: token) else { return false }  // NB: the task has ended already
        entries.values[index].cancel = cancel
        return entries.values[index].isCancelled
    }

    /// Forgets an ended task.
    mutating func end(_ token: UInt64) {
        if entries.removeValue(forKey: token)?.isCancelled == true { cancelledCount -= 1 }
    }

    /// Marks the tasks whose ids `matches` picks as cancelled, and the tasks they started; returns their
    /// cancellations, to run once unlocked.
    mutating func cancel(where matches: (TaskKey?) -> Bool) -> [@Sendable () -> Void] {
        var cancellations: [@Sendable () -> Void] = []
        // NB: a task starts after the task that started it, so its token is larger: one pass in order suffices.
        for token in entries.keys.sorted() {
            guard let entry = entries[token], !entry.isCancelled else { continue }
            let isStartedByCancelled = entry.parent.map { entries[$0]?.isCancelled == true } ?? false
            guard matches(entry.id) || isStartedByCancelled else { continue }
            entries[token]?.isCancelled = true
            cancelledCount += 1
            if let cancel = entry.cancel { cancellations.append(cancel) }
        }
        return cancellations
    }

    /// Whether the task of `token` was cancelled.
    func isCancelled(_ token: UInt64) -> Bool {
        entries[token]?.isCancelled == true
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

/// The tracked task the running code belongs to, if any: what a dispatch checks for cancellation.
///
/// A class: the task-local value and every check of it copy a reference, not its fields.
final class TrackedTask: Sendable {
    let dispatcher: ObjectIdentifier
    let token: UInt64
    /// The id the task was started under.
    let id: TaskKey?
    /// Which effect the task is; `nil` for a task started outside any step.
    let effect: EffectTag?

    init(dispatcher: ObjectIdentifier, token: UInt64, id: TaskKey?, effect: EffectTag?) {
        self.dispatcher = dispatcher
        self.token = token
        self.id = id
        self.effect = effect
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
