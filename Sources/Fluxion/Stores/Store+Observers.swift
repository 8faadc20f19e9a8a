extension Store {
    @usableFromInline
    final func add(_ observer: Observer<State>) {
        let released = guarded.withLock { $0.append(observer) }
        withExtendedLifetime(released) {}  // NB: gone observers are released here, outside the lock
    }

    /// Stops an owner-bound observer for good, and empties its slot.
    final func cancel<Owner>(_ observer: OwnedObserver<State, Owner>) {
        let released = guarded.withLock { contents -> Compaction? in
            defer { lock.advanceGeneration() }
            let slot = observer.slot
            // NB: an observer whose owner went may have been dropped already, and its slot given to another.
            guard observer.markCancelled(), contents.observers.indices.contains(slot),
                contents.observers[slot] === observer
            else { return nil }
            return contents.vacate(slot)
        }
        withExtendedLifetime(released) {}  // NB: released outside the lock: it may run user deinits
    }
}
