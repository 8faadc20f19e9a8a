// Observers that need no old state — new-state, key-path and selector observers — let a handler that
// cannot throw change the state in place, as if the store had no observer. Before the handler runs,
// each observer keeps what it compares (a key path's value, a selected value; a new-state observer
// keeps nothing), outside the lock, since a selector is user code; at the delivery it compares that
// with the new state. An observer added meanwhile is not in the list watched, and first hears the
// next change, as one added just after the commit would.
extension Store {
    /// Has the observers keep what they compare of the state about to change in place; call with
    /// `lock` held. Returns with it held, having dropped it while the observers ran.
    ///
    /// - Returns: The observers watched; not complete, and the lock never dropped, when one of them
    ///   needs the old state and the change is to be made on a copy.
    @usableFromInline
    final func watchObservers() -> InPlaceChange {
        guard oldStateObserverCount == 0 else { return InPlaceChange(observers: [], generation: 0, isComplete: false) }
        let observers = self.observers
        let generation = lock.generation
        let serial = commitSerial
        lock.unlock()
        // NB: the turn holder alone writes `currentState`: it reads it without the lock.
        let check = CancellationCheck(lock: lock, generation: generation)
        for case let observer? in observers {
            // NB: a `Store<State>` lists only `Observer<State>`s.
            unsafeDowncast(observer, to: Observer<State>.self).willChangeInPlace(
                from: currentState, serial: serial, checking: check)
        }
        lock.lock()
        return InPlaceChange(observers: observers, generation: generation, isComplete: true)
    }

    /// Tells the observers watched before an in-place change about it; with a `recorder`, records each call's span.
    @usableFromInline
    final func deliver(_ change: InPlaceChange, for action: AnyAction, tracing recorder: TraceRecorder?) {
        let check = CancellationCheck(lock: lock, generation: change.generation)
        var sawGone = false
        for case let observer? in change.observers {
            // NB: a `Store<State>` lists only `Observer<State>`s.
            let typed = unsafeDowncast(observer, to: Observer<State>.self)
            let mark = recorder?.begin(observer, of: self)
            if !typed.notifyChangedInPlace(to: currentState, by: action, serial: change.serial, checking: check) {
                sawGone = true
            }
            if let recorder, let mark { recorder.end(mark, action: action.name) }
        }
        if sawGone { dropGoneObservers() }
    }
}

/// A change made in place while a store's observers all need no old state: the observers that kept
/// what they compare before it, to tell once it is delivered.
@usableFromInline
struct InPlaceChange {
    @usableFromInline let observers: ContiguousArray<AnyObserver?>
    /// The store lock's generation when `observers` was copied: see `CancellationCheck`.
    let generation: UInt64
    /// Whether every observer watched the state: `false` when one needs the old state.
    @usableFromInline let isComplete: Bool
    /// The store's commit count when the change was committed.
    private(set) var serial: UInt64 = 0

    init(observers: ContiguousArray<AnyObserver?>, generation: UInt64, isComplete: Bool) {
        self.observers = observers
        self.generation = generation
        self.isComplete = isComplete
    }

    /// The same observers, for the change committed as `serial`.
    @usableFromInline
    func committed(serial: UInt64) -> InPlaceChange {
        var change = self
        change.serial = serial
        return change
    }

    /// Has the observers drop what they kept: the change is made on a copy after all.
    @usableFromInline
    func forget() {
        for case let observer? in observers { observer.forgetWatchedState() }
    }
}
