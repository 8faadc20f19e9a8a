extension Store {
    @usableFromInline
    final func add(_ observer: Observer<State>) {
        let released = lock.withLock { append(observer) }
        withExtendedLifetime(released) {}  // NB: gone observers are released here, outside the lock
    }

    /// Appends an observer to the list; call under `lock`.
    ///
    /// - Returns: What compaction let go of, if it ran, for the caller to release after unlocking.
    final func append(_ observer: AnyObserver) -> Compaction? {
        observer.slot = observers.count
        observer.didJoin(atSerial: commitSerial)
        observers.append(observer)
        if type(of: observer).needsOldState { oldStateObserverCount += 1 }
        noteWhetherOldStateIsNeeded()
        return observers.count >= compactionThreshold ? compactObservers() : nil
    }

    /// Sets ``needsOldState`` from the observers that need the state from before a change; call
    /// under `lock`. (Observation's trackers come and go without telling the store: changing in
    /// place checks them under the lock.)
    final func noteWhetherOldStateIsNeeded() {
        needsOldState.set(oldStateObserverCount > 0)
    }

    /// Stops an owner-bound observer for good, and empties its slot.
    final func cancel(_ observer: AnyObserver) {
        lock.lock()
        var released: Compaction?
        let slot = observer.slot
        // NB: an observer whose owner went may have been dropped already, and its slot given to another.
        if observer.markCancelled(), observers.indices.contains(slot), observers[slot] === observer {
            released = vacate(slot)
        }
        lock.advanceGeneration()
        lock.unlock()
        withExtendedLifetime(released) {}  // NB: released outside the lock: it may run user deinits
    }

    /// Empties a cancelled observer's slot in O(1), compacting the list when half of it is empty; call under `lock`.
    ///
    /// The last slot is dropped rather than left empty, with the empty ones before it: an observer
    /// added and cancelled in turn leaves the list as it was, and never makes it compact.
    ///
    /// - Returns: What compaction let go of, if it ran, for the caller to release after unlocking.
    final func vacate(_ slot: Int) -> Compaction? {
        // NB: the caller holds the observer: the list's reference, released here, is not its last.
        if let observer = observers[slot], type(of: observer).needsOldState {
            oldStateObserverCount -= 1
            if oldStateObserverCount == 0 { noteWhetherOldStateIsNeeded() }
        }
        guard slot == observers.count - 1 else {
            observers[slot] = nil
            vacantSlots += 1
            return vacantSlots > observers.count / 2 ? compactObservers() : nil
        }
        observers.removeLast()
        while let last = observers.last, last == nil {
            observers.removeLast()
            vacantSlots -= 1
        }
        return nil
    }

    /// Drops vacant slots and gone observers; call under `lock`.
    ///
    /// - Returns: The old list and the owners checked alive on the way, for
    ///   the caller to release once it has unlocked: releasing either may run
    ///   user code (an observer's closure's captures, an owner's `deinit`).
    final func compactObservers() -> Compaction {
        var kept = ContiguousArray<AnyObserver?>()
        kept.reserveCapacity(observers.count - vacantSlots)
        var owners: [AnyObject] = []
        oldStateObserverCount = 0
        for case let observer? in observers where !observer.isGone(keepingOwnerIn: &owners) {
            observer.slot = kept.count
            kept.append(observer)
            if type(of: observer).needsOldState { oldStateObserverCount += 1 }
        }
        vacantSlots = 0
        compactionThreshold = max(8, kept.count * 2)
        swap(&kept, &observers)
        noteWhetherOldStateIsNeeded()
        return Compaction(observers: kept, owners: owners)
    }
}
