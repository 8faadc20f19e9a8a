import Observation

extension Store: StoreRuntime {
    func attach(to dispatcher: Dispatcher) -> Bool {
        lock.withLock {
            guard !isAttached else { return false }
            isAttached = true
            owningDispatcher = dispatcher
            turnLink.publish(TurnLink(dispatcher))
            return true
        }
    }

    func relayChanges(to relay: ChangeRelay) {
        let isFirst = lock.withLock {
            defer { isRelaying = true }
            return !isRelaying
        }
        guard isFirst else { return }
        // NB: the relay, not the store, owns this observer's life; the reference to the store is weak.
        let reference = StoreReference(self)
        add(
            OwnedObserver(owner: relay) { relay, change in
                relay.deliver(AnyStoreChange(change, reference: reference))
            })
    }

    @inlinable
    final var hasStagedChange: Bool {
        // NB: only the turn holder, which `stagingThread` names while it stages, reads `staged`.
        guard isStaging, let staged else { return false }
        return isEqual.map { !$0(staged, currentState) } ?? true
    }

    var isStagingChanges: Bool { isStaging }

    func currentStateChange() -> AnyStoreChange {
        AnyStoreChange(StoreChange(currentState: committedState), of: self)
    }

    /// The state as last committed, whichever thread asks: what a new observer hears first.
    @usableFromInline
    final var committedState: State {
        lock.withLock {
            if inPlaceMutator.thread != nil { waitForInPlaceMutation() }
            return currentState
        }
    }
}

// How a handler's change reaches the state: committed at once when its action
// reaches this store alone, or staged, then committed or rolled back with the
// rest of its transaction. Only the holder of the dispatch turn calls these;
// they are specialised for `State` in the module that declares the store.
extension Store {
    /// Runs `mutate` on a copy of the state, and commits or stages the copy if it returns.
    @inlinable
    final func apply(_ mutate: (inout State) throws -> Void) -> HandlerOutcome {
        // NB: the turn holder may read `currentState` and `staged` without the lock: it alone writes them.
        var state = isStaging ? (staged ?? currentState) : currentState
        do {
            try mutate(&state)
        } catch {
            return .failed(error)
        }
        guard isStaging else { return .committed(delivers: commit(&state)) }
        // NB: only this thread, which `stagingThread` names, reads `staged`: no lock is needed.
        staged = state
        stagingThread.set(.current)
        return .staged
    }

    /// Whether a handler that cannot throw may change the state in place: the action reaches this store alone
    /// (it does not stage), and nothing needs the state from before it; ``applyInPlace(_:)`` tells the rest.
    @inlinable
    final var mayApplyInPlace: Bool { !isStaging && !needsOldState.isSet }

    /// Runs a handler that cannot throw in place, when nothing needs the state from before it (no observer,
    /// and no installed Observation tracker that compares it), and returns what it did; returns `nil`
    /// otherwise, without running it: the caller runs it on a copy, with ``apply(_:)``. Call it only when
    /// ``mayApplyInPlace``.
    ///
    /// In place, appending to a big array costs what appending costs, not a
    /// copy of the array. Readers on other threads wait for the handler.
    @inlinable
    final func applyInPlace(_ mutate: (inout State) throws -> Void) -> HandlerOutcome? {
        lock.lock()
        // NB: observers that need no old state keep what they compare first; see Store+InPlaceObservers.swift.
        let watching = observers.isEmpty ? nil : watchObservers()
        let tellsState = isStateTracked
        guard watching?.isComplete ?? true, !tellsState || isEqual == nil else {
            lock.unlock()
            watching?.forget()
            return nil
        }
        // NB: what the trackers read before now; a reader from now on waits, and reads the new state.
        let tracked = trackedValues.isEmpty ? nil : trackedValues.tracked()
        let thread = ThreadID.current
        inPlaceMutator.set(thread)  // NB: readers on other threads wait from here until it is cleared
        commitSerial &+= 1
        let serial = commitSerial
        lock.unlock()
        // NB: the turn holder alone writes `currentState`, and readers wait: no lock is needed to change it.
        let watches = tracked?.map { $0.watch(currentState) }
        var failure: (any Error)?
        do {
            try mutate(&currentState)
        } catch {
            failure = error  // NB: only a handler declared not to throw runs here: this is never reached
        }
        // NB: most often no reader waits: the mark is cleared without the lock. A reader that waits
        // flagged it under the lock first, so it is told under the lock.
        if !inPlaceMutator.clear(thread) {
            lock.lock()
            inPlaceMutator.set(nil)
            lock.broadcast()
            lock.unlock()
        }
        if let failure { return .failed(failure) }
        if tellsState { registrar.withMutation(of: self, keyPath: stateKeyPath) {} }
        if let tracked, let watches {
            // NB: checked again before each: telling one value may have fired the tracker of the next.
            for (value, hasChanged) in zip(tracked, watches) where isTracked(value) && hasChanged(currentState) {
                value.tell(self)
            }
        }
        guard let watching else { return .committed(delivers: false) }
        pendingInPlaceChange = watching.committed(serial: serial)
        return .committed(delivers: true)
    }

    /// Commits `state`, leaving the old state in it; returns whether the change is one someone hears.
    ///
    /// A state equal to the current one, when `State` is `Equatable`, is no change.
    @inlinable
    final func commit(_ state: inout State) -> Bool {
        if let isEqual, isEqual(state, currentState) { return false }
        return install(&state, endingStaging: false)
    }

    /// Commits the staged state, if any; returns whether the change is one someone hears.
    @inlinable
    final func commitStaged() -> Bool {
        isStaging = false
        guard let newState = staged else { return false }
        if let isEqual, isEqual(newState, currentState) {
            rollBackStaged()
            return false
        }
        var state = newState
        return install(&state, endingStaging: true)
    }

    /// Makes `state` the committed state, leaving the old one in it, and keeps the change for
    /// delivery; returns whether someone hears it.
    ///
    /// - Parameter endingStaging: Whether to drop the staged state too, in the same critical section.
    @inlinable
    final func install(_ state: inout State, endingStaging: Bool) -> Bool {
        lock.lock()
        if endingStaging {
            stagingThread.set(nil)
            staged = nil  // NB: the caller holds a copy of it: nothing is released under the lock
        }
        swap(&currentState, &state)
        let observers = self.observers
        // NB: in the critical section that commits: a reader before it is tracked now, one after reads the new state.
        let tellsState = isStateTracked
        let tracked = trackedValues.isEmpty ? [] : trackedValues.tracked()
        commitSerial &+= 1
        let serial = commitSerial
        let generation = lock.generation
        lock.unlock()
        // NB: `state` now holds the old state, released by the caller, outside the lock.
        guard !observers.isEmpty || tellsState || !tracked.isEmpty else { return false }
        pendingChange = PendingChange(
            oldState: state, observers: observers, generation: generation, tellsState: tellsState,
            tracked: tracked, serial: serial)
        return true
    }

    /// Drops the staged state: the store keeps its committed state.
    @inlinable
    final func rollBackStaged() {
        isStaging = false
        // NB: only this thread, which `stagingThread` names, reads `staged`: no lock is needed.
        stagingThread.set(nil)
        staged = nil
    }

    /// Tells the observers about the committed change, if any.
    @inlinable
    final func deliverPendingChange(for action: AnyAction) {
        deliverPendingChange(for: action, tracing: nil)
    }

    /// Tells the observers about the committed change, if any; with a `recorder`, records each call's span.
    /// NB: always inlined, so that the untraced delivery, whose `recorder` is `nil`, tests nothing.
    @inlinable
    @inline(__always)
    final func deliverPendingChange(for action: AnyAction, tracing recorder: TraceRecorder?) {
        guard let pending = pendingChange.take() else {
            if let change = pendingInPlaceChange.take() { deliver(change, for: action, tracing: recorder) }
            return
        }
        if !pending.observers.isEmpty {
            let change = StoreChange(
                oldState: pending.oldState, newState: currentState, action: action, serial: pending.serial)
            let check = CancellationCheck(lock: lock, generation: pending.generation)
            var sawGone = false
            for index in pending.observers.indices {
                // NB: `pending` holds the observers: each is lent to its call without a reference count.
                guard let observer = pending.observers[index].map(Unmanaged.passUnretained) else { continue }
                let isGone = observer._withUnsafeGuaranteedRef { observer in
                    // NB: a `Store<State>` lists only `Observer<State>`s. `recorder` is `nil` unless a trace
                    // records: tested first, so that an untraced call builds no span.
                    guard let recorder else {
                        return !unsafeDowncast(observer, to: Observer<State>.self).notify(change, checking: check)
                    }
                    let mark = recorder.begin(observer, of: self)
                    defer { recorder.end(mark, action: action.name) }
                    return !unsafeDowncast(observer, to: Observer<State>.self).notify(change, checking: check)
                }
                if isGone { sawGone = true }
            }
            if sawGone { dropGoneObservers() }
        }
        // NB: only trackers installed, or being installed, at the commit; see Store+ValueTracking.swift.
        if pending.tellsState { registrar.withMutation(of: self, keyPath: stateKeyPath) {} }
        // NB: checked again before each: telling one value may have fired the tracker of the next.
        for value in pending.tracked where isTracked(value) {
            if value.hasChanged(from: pending.oldState, to: currentState) { value.tell(self) }
        }
    }

    /// Whether a tracker still holds `value`, checked under the lock: readers take their holds under it.
    @inlinable
    final func isTracked(_ value: TrackedValue<State>) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return value.isTracked
    }

    @usableFromInline
    final func dropGoneObservers() {
        let released = lock.withLock { compactObservers() }
        withExtendedLifetime(released) {}  // NB: released outside the lock
    }
}

/// What compacting a store's observer list let go of, to release once the store is unlocked.
struct Compaction {
    let observers: ContiguousArray<AnyObserver?>
    /// The owners loaded to check that they live; the last reference to one may be here.
    let owners: [AnyObject]
}

/// A committed change, waiting for the end of its transaction to be delivered.
@usableFromInline
struct PendingChange<State: Sendable> {
    @usableFromInline let oldState: State
    @usableFromInline let observers: ContiguousArray<AnyObserver?>
    /// The store lock's generation when `observers` was copied: see `CancellationCheck`.
    @usableFromInline let generation: UInt64
    /// Whether to tell Observation of a change of the whole state: a tracker held it at the commit.
    @usableFromInline let tellsState: Bool
    /// The values read through the store that a tracker held at the commit, to tell of those that changed.
    @usableFromInline let tracked: ContiguousArray<TrackedValue<State>>
    /// The store's commit count when the change was committed.
    @usableFromInline let serial: UInt64

    @usableFromInline
    init(
        oldState: State, observers: ContiguousArray<AnyObserver?>, generation: UInt64, tellsState: Bool,
        tracked: ContiguousArray<TrackedValue<State>>, serial: UInt64
    ) {
        self.oldState = oldState
        self.observers = observers
        self.generation = generation
        self.tellsState = tellsState
        self.tracked = tracked
        self.serial = serial
    }
}

/// `==` for `State` when it is `Equatable`; `nil` otherwise.
func equality<State>(of type: State.Type) -> (@Sendable (State, State) -> Bool)? {
    guard let equatable = type as? any Equatable.Type else { return nil }
    func equality<Value: Equatable>(_: Value.Type) -> @Sendable (State, State) -> Bool {
        { first, second in
            // NB: `State` is `Value`: the cast above proved it.
            withUnsafePointer(to: first) { first in
                withUnsafePointer(to: second) { second in
                    UnsafeRawPointer(first).assumingMemoryBound(to: Value.self).pointee
                        == UnsafeRawPointer(second).assumingMemoryBound(to: Value.self).pointee
                }
            }
        }
    }
    return equality(equatable)
}
