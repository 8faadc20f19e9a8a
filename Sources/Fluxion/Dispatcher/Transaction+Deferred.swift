// What a transaction defers to its commit: the actions its code dispatched, and the effects its handlers
// asked for; they run after it commits, or are dropped with it.
extension Transaction {
    /// Keeps an action dispatched during the transaction, to run after it commits.
    func enqueue(_ action: QueuedAction) {
        // NB: the effects asked for before it keep their place: they are queued as starts of their own first.
        if !effects.requested.isEmpty { queueRequestedEffects() }
        queued.append(action)
    }

    /// Queues the starts of the effects asked for while nothing else was queued, in order.
    func queueRequestedEffects() {
        for task in effects.requested { queued.append(QueuedAction(startingEffect: task)) }
        effects.requested.removeAll(keepingCapacity: true)
    }

    /// Keeps an effect asked for during the transaction, to start after it commits: among the requested
    /// effects, apart from the queue, while nothing else is queued (see ``EffectStarts``); queued as a start
    /// of its own otherwise.
    func keep(effect task: TrackedTask) {
        if queued.isEmpty { effects.requested.append(task) } else { enqueue(QueuedAction(startingEffect: task)) }
    }

    /// Whether the transaction's code dispatched actions or asked for effects, which wait for it to end.
    var hasQueued: Bool { !queued.isEmpty || !effects.requested.isEmpty }

    /// Hands the actions dispatched during the ended transaction to `body`, which takes them all;
    /// does nothing when there are none. NB: the queue keeps its buffer for the next transaction.
    func moveQueued(_ body: (inout ActionQueue) -> Void) {
        guard !queued.isEmpty else { return }
        body(&queued)
    }

    /// Drops the actions dispatched during the ended transaction.
    func dropQueued() {
        var dropped = ActionQueue()
        swap(&dropped, &queued)
        effects.requested.removeAll(keepingCapacity: true)
    }
}
