/// One observer in a store's list, with the store's state type erased.
///
/// The list itself is kept free of generic types, so that adding and
/// cancelling observers needs no generic-metadata look-ups.
@usableFromInline
class AnyObserver {
    /// Where the observer sits in its store's list; guarded by the store's lock.
    final var slot = 0

    /// Whether the observer is gone for good, so its slot can be reused; called under the store's lock.
    ///
    /// - Parameter owners: Where a weak-owner observer puts its owner when it
    ///   is alive: the strong reference its check takes may be the owner's
    ///   last, and the owner's `deinit` must not run under the lock.
    func isGone(keepingOwnerIn owners: inout [AnyObject]) -> Bool { true }

    /// Notes the store's commit count when the observer joined its list; called under the store's lock.
    func didJoin(atSerial serial: UInt64) {}

    /// Whether the observer needs the whole state from before each change: while a store lists one,
    /// its handlers change a copy of the state. Those that need only the new state, or values they
    /// compare, keep those values before an in-place change instead (see `Observer`).
    class var needsOldState: Bool { true }

    /// Drops what an observer that needs no old state kept before an in-place change (see `Observer`).
    func forgetWatchedState() {}

    /// Marks an owner-bound observer cancelled; `false` if it was already, or if it cannot be.
    /// Call under the store's lock, and then advance its generation.
    func markCancelled() -> Bool { false }

    /// What the observer is, as a performance trace names it.
    class var traceLabel: String { "observer" }
}

/// An observer of a store whose state is `State`.
@usableFromInline
class Observer<State: Sendable>: AnyObserver {
    /// Calls the observer with `change`; returns `false` when the observer is gone.
    @usableFromInline
    func notify(_ change: StoreChange<State>, checking check: CancellationCheck) -> Bool { false }

    // An observer that does not need the old state (`needsOldState` is `false`) lets its store change
    // the state in place. The store's dispatch turn holder then calls, with no lock held,
    // `willChangeInPlace` before the handler runs, so that the observer keeps what it compares, and
    // `notifyChangedInPlace` at the delivery; or `forgetWatchedState` if the change is made on a copy
    // after all. Only the turn holder touches what is kept.

    /// Keeps what the observer compares, from the state about to change in place.
    ///
    /// - Parameter serial: The store's commit count when `old` was committed.
    func willChangeInPlace(from old: State, serial: UInt64, checking check: CancellationCheck) {}

    /// Calls the observer after an in-place change; returns `false` when the observer is gone.
    ///
    /// - Parameter serial: The store's commit count when the change was committed.
    func notifyChangedInPlace(
        to new: State, by action: AnyAction, serial: UInt64, checking check: CancellationCheck
    ) -> Bool { false }
}

/// An observer that lives as long as its owner, or until its ``ObservationHandle`` cancels it.
@usableFromInline
final class OwnedObserver<State: Sendable, Owner: AnyObject & Sendable>: Observer<State>, @unchecked Sendable {
    // NB: `isCancelled` is guarded by the store's lock; `owner` is written once, in `init`.
    private weak var owner: Owner?
    private let body: @Sendable (Owner, StoreChange<State>) -> Void
    private var isCancelled = false

    @usableFromInline
    init(owner: Owner, body: @escaping @Sendable (Owner, StoreChange<State>) -> Void) {
        self.owner = owner
        self.body = body
    }

    override func notify(_ change: StoreChange<State>, checking check: CancellationCheck) -> Bool {
        guard check.allowsCall({ isCancelled }), let owner else { return false }
        body(owner, change)
        return true
    }

    override func isGone(keepingOwnerIn owners: inout [AnyObject]) -> Bool {
        guard !isCancelled, let owner else { return true }
        owners.append(owner)
        return false
    }

    override class var traceLabel: String {
        Owner.self == ChangeRelay.self ? "observers of every store" : "observer owned by \(typeName(Owner.self))"
    }

    /// A handle that cancels this observer of `store`; neither keeps the other, nor the store, alive.
    @usableFromInline
    func handle(in store: Store<State>, closing gate: DeliveryGate? = nil) -> ObservationHandle {
        ObservationHandle(lock: store.lock) { [weak store] in
            gate?.cancel()
            store?.cancel(self)
        }
    }

    override func markCancelled() -> Bool {
        defer { isCancelled = true }
        return !isCancelled
    }
}

/// An observer that lives until its token is cancelled or released.
@usableFromInline
final class TokenObserver<State: Sendable>: Observer<State>, ReleaseChecking, @unchecked Sendable {  // store lock
    // NB: a strong reference: the store lists this observer until it is cancelled, and
    // the token cancels it at the latest when released, which breaks the cycle.
    private let store: Store<State>
    private let body: @Sendable (StoreChange<State>) -> Void
    /// Guarded by the store's lock.
    private var isCancelled = false
    /// The store's commit serial when the observer joined its list; guarded by the store's lock.
    private var createdAt: UInt64 = 0

    @usableFromInline
    init(store: Store<State>, body: @escaping @Sendable (StoreChange<State>) -> Void) {
        self.store = store
        self.body = body
    }

    override func didJoin(atSerial serial: UInt64) {
        createdAt = serial
    }

    func storeNameIfNothingChanged() -> String? {
        store.lock.withLock { store.commitSerial == createdAt } ? typeName(type(of: store)) : nil
    }

    override func notify(_ change: StoreChange<State>, checking check: CancellationCheck) -> Bool {
        guard check.allowsCall({ isCancelled }) else { return false }
        body(change)
        return true
    }

    override func isGone(keepingOwnerIn owners: inout [AnyObject]) -> Bool { isCancelled }

    override class var traceLabel: String { "token observer" }

    @usableFromInline
    func cancel() {
        var released: Any?
        store.lock.lock()
        _ = cancel(holding: store.lock, releasing: &released)
        store.lock.unlock()
        withExtendedLifetime(released) {}  // NB: released outside the lock: it may run user deinits
    }

    @usableFromInline
    func cancel(holding lock: Lock, releasing released: inout Any?) -> Bool {
        guard lock === store.lock else { return false }
        if !isCancelled, let compaction = store.vacate(slot) { released = compaction }
        isCancelled = true
        store.lock.advanceGeneration()
        return true
    }
}

/// An observer an ``ObservationToken`` can cancel.
@usableFromInline
protocol Cancellable: AnyObject, Sendable {
    /// Stops the observer, taking the locks that guard it.
    func cancel()

    /// Stops the observer within the critical section of `lock`, its token's lock, which the caller
    /// holds, when that lock is the one that guards the observer: a cancel then takes one lock, not two.
    ///
    /// - Parameter released: Where to put what the cancel lets go of (a `Compaction`), for the caller
    ///   to release once unlocked.
    /// - Returns: `false`, having done nothing, when the observer must be stopped with ``cancel()`` after unlocking.
    func cancel(holding lock: Lock, releasing released: inout Any?) -> Bool
}

extension Cancellable {
    @usableFromInline
    func cancel(holding lock: Lock, releasing released: inout Any?) -> Bool { false }
}

/// An observer that can tell whether its token is being released before the store changed at all:
/// `_ = store.observe { … }`, which never fires.
protocol ReleaseChecking: Cancellable {
    /// The store's type name when no change was committed since the observer was added; else `nil`.
    func storeNameIfNothingChanged() -> String?
}
