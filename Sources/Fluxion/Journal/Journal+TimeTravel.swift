// Time travel: moving the stores to the states after any step the journal holds, and back.
//
// A move sets every store the steps in between changed, as one batch its
// observers hear as `Fluxion.travel`; no handler runs. While the stores show
// the past, every other action is refused with `JournalError.travelling`, but those of tasks, which
// are held; `resumeDiscardingLaterSteps()` makes the past the present, dropping the steps after it and the held actions,
// and `returnToPresent()` moves back to the last step and lets the held actions run. Persistence
// saves no state a travel set; `resumeDiscardingLaterSteps()` saves the states it makes the present.
extension Journal {
    /// The step whose states the stores show: the last step at the present; 0 before any.
    public var step: Int {
        contents.withLock { $0.position ?? ($0.nextSequence - 1) }
    }

    /// The steps the stores can be moved to: from the one before the oldest step in memory to the last.
    public var steps: ClosedRange<Int> {
        contents.withLock { Self.range(of: $0) }
    }

    /// Whether the stores show the past, and other actions are refused.
    public var isTravelling: Bool {
        contents.withLock { $0.position != nil }
    }

    /// Moves the stores to their states right after step `step` (before the oldest step: one less than it).
    ///
    /// Observers and Observation trackers hear the move as a change whose
    /// action is named ``AnyAction/travelName``; handlers do not run. The move
    /// happens all at once: its states are worked out and set in one dispatch
    /// turn, so an action that commits while the move waits for the turn is
    /// moved too, and no store shows the present beside others in the past.
    ///
    /// - Throws: ``JournalError/noSuchStep(_:range:)`` for a step outside ``steps``.
    public func travel(to step: Int) throws {
        try move("travel to step \(step)") { _, _ in step }
    }

    /// Moves the stores one step back.
    ///
    /// - Throws: ``JournalError/atOldestStep(_:)`` at the oldest step the journal holds.
    public func stepBack() throws {
        try move("step back", orAtEdge: JournalError.atOldestStep) { current, _ in current - 1 }
    }

    /// Moves the stores one step forward.
    ///
    /// - Throws: ``JournalError/atNewestStep(_:)`` at the newest step, the present.
    public func stepForward() throws {
        try move("step forward", orAtEdge: JournalError.atNewestStep) { current, _ in current + 1 }
    }

    /// Moves the stores back to the last step, and lets actions through again.
    public func returnToPresent() throws {
        try move("return to the present") { _, last in last }
    }

    /// Makes the step the stores show the present: the steps after it are dropped (from memory; the
    /// file records where recording resumed, with the state of every store the travel moved), and actions
    /// are let through again, numbered on from it.
    ///
    /// An effect a dropped step started may still run: the file records its end too, when it comes, on a
    /// line that names the dropped step and is marked as of a dropped step (a later step may have its
    /// number), so that a replay of the file does not list it in ``ReplayReport/unfinishedEffects``.
    public func resumeDiscardingLaterSteps() {
        // NB: in the dispatch turn, so that the file's resume line comes before the steps that follow it.
        dispatcher.withTurn {
            let resumed = contents.withLock { contents -> (position: Int, wakesWriter: Bool)? in
                guard let position = contents.position else { return nil }
                // NB: every store a step in memory changed, before or after the position: the travel moved
                // those after it, and a replay must set them too.
                var seen: Set<ObjectIdentifier> = []
                let stores = contents.entries.all.flatMap(\.changes).map(\.seen).filter {
                    seen.insert(ObjectIdentifier($0)).inserted
                }
                if writer != nil { contents.keepDroppedEffects(after: position) }
                contents.entries.removeAll(after: position)
                contents.refusals.removeAll { $0.afterStep > position }
                contents.nextSequence = position + 1
                contents.position = nil
                let states = stores.map { JournalEntries.Change($0, oldState: (), newState: $0.store.erasedState) }
                return (position, writer?.writeResume(after: position, states: states) ?? false)
            }
            guard let (position, wakesWriter) = resumed else { return }
            if wakesWriter { writer?.wake() }
            dispatcher.dropHeldDispatches(at: position)
            dispatcher.persistenceCenter.scheduleSavesOfCurrentStates()
        }
    }

    /// Moves the stores to the step `target` names, given the step they show and the last step.
    ///
    /// NB: the target and its states are worked out inside the move's dispatch turn, where no other
    /// step can commit: the move is one step's states, all at once.
    /// - Parameter atEdge: The error for a step outside the journal, given the step shown; `noSuchStep` if `nil`.
    /// - Parameter name: What the move is called in an error: "step back", "return to the present".
    ///
    /// NB: the move is a dispatch turn of its own, from taking the turn to giving it up: the journal stops
    /// moving, and the dispatches held for the present are queued first, before the turn runs what the
    /// move's observers queued. No action commits unrecorded meanwhile, none overtakes a held one.
    private func move(
        _ name: String,
        orAtEdge atEdge: ((Int) -> JournalError)? = nil,
        to target: (_ current: Int, _ last: Int) -> Int
    ) throws {
        if case .refuse = dispatcher.admission(of: .move) { throw JournalError.travelDuringDispatch(move: name) }
        contents.withLock { $0.beforeMoveTakesTurn }?()
        var moved: (step: Int, last: Int, old: Int?)?
        do {
            try dispatcher.setStates(
                computing: {
                    let (states, move) = try contents.withLock { contents in
                        let range = Self.range(of: contents)
                        let current = contents.position ?? range.upperBound
                        let step = target(current, range.upperBound)
                        guard range.contains(step) else {
                            throw atEdge?(current) ?? JournalError.noSuchStep(step, range: range)
                        }
                        let move = (step: step, last: range.upperBound, old: contents.position)
                        contents.isMoving = true
                        contents.position = step == range.upperBound ? nil : step
                        return (Self.states(after: step, from: current, in: contents.entries), move)
                    }
                    moved = move
                    // NB: moving to the present, tasks' dispatches stay held until the held ones are queued, in
                    // the move's turn (`queueHeldDispatchesFirst`): one arriving meanwhile joins them, in order.
                    if move.step != move.last { dispatcher.showPast(true) }
                    return states
                },
                beforeQueuedActions: { [self] in
                    let isPresent = contents.withLock { contents in
                        contents.isMoving = false
                        return contents.position == nil
                    }
                    if isPresent { dispatcher.queueHeldDispatchesFirst() }
                })
        } catch {
            if let moved {
                contents.withLock { $0.position = moved.old }
                dispatcher.showPast(moved.old != nil)
            }
            endMoving()
            throw error
        }
    }

    /// Tests' hook: runs on the travelling thread before a move takes the dispatch turn.
    var beforeMoveTakesTurn: (@Sendable () -> Void)? {
        get { contents.withLock { $0.beforeMoveTakesTurn } }
        set { contents.withLock { $0.beforeMoveTakesTurn = newValue } }
    }

    private static func range(of contents: Contents) -> ClosedRange<Int> {
        let last = contents.nextSequence - 1
        return ((contents.entries.first?.sequence ?? last + 1) - 1)...last
    }

    /// The state after step `step` of each store the steps between `step` and `current` changed: the
    /// state before its first change after `step`, or, if it has none, its state after its last change.
    private static func states(after step: Int, from current: Int, in entries: JournalEntries)
        -> [(store: any StateReplacing, state: any Sendable)]
    {
        let (low, high) = (min(step, current), max(step, current))
        var targets: [ObjectIdentifier: (store: any StateReplacing, state: any Sendable)] = [:]
        var order: [ObjectIdentifier] = []
        for entry in entries.all where entry.sequence > low && entry.sequence <= high {
            for change in entry.changes where targets[ObjectIdentifier(change.store)] == nil {
                let id = ObjectIdentifier(change.store)
                targets[id] = (change.store, change.oldState)
                order.append(id)
            }
        }
        let all = entries.all
        for id in order {
            let changes = all.flatMap { entry in
                entry.changes.filter { ObjectIdentifier($0.store) == id }.map { (entry.sequence, $0) }
            }
            if let next = changes.first(where: { $0.0 > step }) {
                targets[id]?.state = next.1.oldState
            } else if let last = changes.last {
                targets[id]?.state = last.1.newState
            }
        }
        return order.compactMap { targets[$0] }
    }
}
