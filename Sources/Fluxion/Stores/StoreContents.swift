/// Everything a store's lock guards: its states, its observers, its Observation bookkeeping and its links.
///
/// A store holds it in a ``Guarded`` value and touches it inside `withLock`,
/// with one exception, named where it is taken: the committed and staged
/// states are written only by the holder of the owning dispatcher's dispatch
/// turn, so that thread reads them without the lock (`withoutLock`), and it
/// changes the state in place while `inPlaceMutator` makes other readers wait.
@usableFromInline
struct StoreContents<State: Sendable> {
    /// The committed state; written under the lock, by the dispatch turn's holder alone.
    @usableFromInline var current: State
    /// The state of the running transaction, not committed yet; written like `current`.
    @usableFromInline var staged: State?
    /// The thread running the transaction that staged `staged`: the only one that reads it.
    @usableFromInline var stagedBy: ThreadID?
    /// The thread changing the state in place, if one is: readers on other threads wait for it.
    @usableFromInline var inPlaceMutator: ThreadID?
    /// Whether ``Store/state`` was ever read: only then can observation tracking be watching it.
    @usableFromInline var isRead = false
    /// The values of the state read through ``Store/subscript(dynamicMember:)``, which Observation may track.
    @usableFromInline var trackedValues = TrackedValues<State>()
    /// How many changes were committed, each with its observers.
    @usableFromInline var commitSerial: UInt64 = 0
    /// The observers in the order they were added; `nil` marks a cancelled one's slot.
    @usableFromInline var observers: ContiguousArray<AnyObserver?> = []
    private var vacantSlots = 0
    private var compactionThreshold = 8
    /// The key-path observer groups, by key path. See `KeyPathObserverGroup`.
    var keyPathGroups: [AnyKeyPath: AnyObserver] = [:]
    /// The dispatcher that created the store; set once, when it attaches the store.
    weak var owningDispatcher: Dispatcher?
    var isAttached = false
    /// Whether the store passes its changes on to its dispatcher's whole-dispatcher observers.
    var isForwarding = false

    @usableFromInline
    init(current: State) {
        self.current = current
    }

    /// The state the calling thread sees: its transaction's staged state, or the committed one.
    ///
    /// NB: call it when no handler changes the state in place on another thread.
    @usableFromInline
    var visibleState: State {
        if let thread = stagedBy, thread == .current, let staged { return staged }
        return current
    }

    /// Appends an observer to the list.
    ///
    /// - Returns: What compaction let go of, if it ran, for the caller to release after unlocking.
    mutating func append(_ observer: AnyObserver) -> Compaction? {
        observer.slot = observers.count
        observers.append(observer)
        return observers.count >= compactionThreshold ? compactObservers() : nil
    }

    /// Empties a cancelled observer's slot in O(1), compacting the list when half of it is empty.
    ///
    /// - Returns: What compaction let go of, if it ran, for the caller to release after unlocking.
    mutating func vacate(_ slot: Int) -> Compaction? {
        observers[slot] = nil
        vacantSlots += 1
        return vacantSlots > observers.count / 2 ? compactObservers() : nil
    }

    /// Drops vacant slots and gone observers.
    ///
    /// - Returns: The old list and the owners checked alive on the way, for
    ///   the caller to release once it has unlocked: releasing either may run
    ///   user code (an observer's closure's captures, an owner's `deinit`).
    mutating func compactObservers() -> Compaction {
        var kept = ContiguousArray<AnyObserver?>()
        kept.reserveCapacity(observers.count - vacantSlots)
        var owners: [AnyObject] = []
        for case let observer? in observers where !observer.isGone(keepingOwnerIn: &owners) {
            observer.slot = kept.count
            kept.append(observer)
        }
        vacantSlots = 0
        compactionThreshold = max(8, kept.count * 2)
        swap(&kept, &observers)
        return Compaction(observers: kept, owners: owners)
    }
}

/// What compacting a store's observer list let go of, to release once the store is unlocked.
struct Compaction {
    let observers: ContiguousArray<AnyObserver?>
    /// The owners loaded to check that they live; the last reference to one may be here.
    let owners: [AnyObject]
}
