import Observation

// Reading a store's state: under the lock, or, by the thread holding the owning dispatcher's turn, without it.
extension Store {
    /// A snapshot of the current state; safe to read from any thread.
    ///
    /// Other threads see the state as last committed: never a state in the
    /// middle of an action or a batch. The thread running an action sees the
    /// action's changes so far: a handler that calls ``waitFor(_:)`` reads the
    /// other store's new state here (its own is its `inout` parameter), and a
    /// computed store reads as computed from its sources' states so far. Read
    /// by its own handler while that handler changes the state in place (see
    /// "Designing Stores"), it returns the state as changed so far.
    @inlinable
    public final var state: State {
        // NB: inlinable, so that the caller, knowing `State`, finds `Store<State>`'s metadata in its
        // own cache: an unspecialised read looks it up in the runtime's table (about 850 instructions).
        if holdsTurn, inPlaceMutator.thread == nil { return turnHolderState }
        lock.lock()
        defer { lock.unlock() }
        // NB: under the lock, before the read: a commit after this read sees the key path held.
        noteStateRead()
        return visibleState
    }

    /// Whether the calling thread holds the turn of the owning dispatcher.
    @inlinable
    final var holdsTurn: Bool {
        turnLink.link?._withUnsafeGuaranteedRef { $0.turn.names(.current) } ?? false
    }

    /// The state as the holder of the owning dispatcher's turn reads it, without the lock: a handler
    /// reading another store's state after ``waitFor(_:)``, for one.
    ///
    /// NB: the turn holder is the only thread that writes `currentState` (under the lock, for readers on
    /// other threads) and `staged` (which only it reads), and no handler changes this state in place
    /// (the caller checked): nothing it reads can change under it, and the lock would order nothing. It
    /// commits on this same thread, after this read: the commit sees the key path a tracker holds.
    @inlinable
    final var turnHolderState: State {
        noteStateRead()
        // NB: a computed store read inside a step agrees with the sources the step staged (see `derivedState`).
        if _slowPath(isDerived.isSet), let derived = derivedState() { return derived }
        if stagingThread.names(.current), let staged { return staged }
        return currentState
    }

    /// Tells Observation of a read of the whole state, and notes that a tracker may hold `stateKeyPath` now.
    @inlinable
    final func noteStateRead() {
        // NB: lent: the store keeps the key path, and a reference count is two atomic operations a read.
        Unmanaged.passUnretained(stateKeyPath)._withUnsafeGuaranteedRef { registrar.access(self, keyPath: $0) }
        if !isStateRead.isSet { isStateRead.set(true) }
    }

    /// The state the calling thread sees: a transaction's own staged state, or the committed one.
    /// NB: read with `lock` held.
    @inlinable
    final var visibleState: State {
        if inPlaceMutator.thread != nil { waitForInPlaceMutation() }
        if stagingThread.names(.current), let staged { return staged }
        return currentState
    }

    /// Waits, the lock held, until the handler changing the state in place has returned; returns at once on
    /// the handler's own thread (a handler that reads its own store, or a nested dispatch to another
    /// dispatcher that reads it), which then reads the state as the handler has changed it so far.
    @usableFromInline
    final func waitForInPlaceMutation() {
        while let mutator = inPlaceMutator.thread {
            // NB: the state is the handler's `inout` argument now; its own thread reads it as it is.
            if mutator == .current { return }
            // NB: flagged, the handler's thread clears the mark under the lock and wakes this one.
            if inPlaceMutator.flagWaiting(for: mutator) { lock.wait() }
        }
    }
}
