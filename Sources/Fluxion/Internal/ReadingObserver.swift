/// An owner-bound observer that needs no old state: its ``ChangeReader`` picks the argument of each
/// call, and its store may change the state in place.
final class OwnedReadingObserver<State: Sendable, Owner: AnyObject & Sendable, Argument: Sendable>: Observer<State>,
    @unchecked Sendable
{
    // NB: `isCancelled` is guarded by the store's lock; `owner` is written once, in `init`.
    private weak var owner: Owner?
    private let reader: ChangeReader<State, Argument>
    private let body: @Sendable (Owner, Argument) -> Void
    @exclusivity(unchecked) private var isCancelled = false

    init(owner: Owner, reader: ChangeReader<State, Argument>, body: @escaping @Sendable (Owner, Argument) -> Void) {
        self.owner = owner
        self.reader = reader
        self.body = body
    }

    override class var needsOldState: Bool { false }

    override func notify(_ change: StoreChange<State>, checking check: CancellationCheck) -> Bool {
        guard check.allowsCall({ isCancelled }), let owner else { return false }
        if let argument = reader.argument(for: change) { body(owner, argument) }
        return true
    }

    override func willChangeInPlace(from old: State, checking check: CancellationCheck) {
        // NB: the owner is checked at the delivery: loading it twice would cost a weak load more.
        guard check.allowsCall({ isCancelled }) else { return }
        reader.watch(old)
    }

    override func forgetWatchedState() {
        reader.forget()
    }

    override func notifyChangedInPlace(
        to new: State, by action: AnyAction, serial: UInt64, checking check: CancellationCheck
    ) -> Bool {
        guard check.allowsCall({ isCancelled }), let owner else {
            reader.forget()
            return false
        }
        if let argument = reader.argument(changedTo: new, by: action) { body(owner, argument) }
        return true
    }

    override func isGone(keepingOwnerIn owners: inout [AnyObject]) -> Bool {
        guard !isCancelled, let owner else { return true }
        owners.append(owner)
        return false
    }

    override class var traceLabel: String { "observer owned by \(typeName(Owner.self))" }

    /// A handle that cancels this observer of `store`; neither keeps the other, nor the store, alive.
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

/// A token observer that needs no old state: its ``ChangeReader`` picks the argument of each call,
/// and its store may change the state in place.
final class TokenReadingObserver<State: Sendable, Argument: Sendable>: Observer<State>, ReleaseChecking,
    @unchecked Sendable
{  // `isCancelled`, `createdAt`: the store's lock
    // NB: a strong reference, as for `TokenObserver`: the token cancels at the latest when released.
    private let store: Store<State>
    private let reader: ChangeReader<State, Argument>
    private let body: @Sendable (Argument) -> Void
    @exclusivity(unchecked) private var isCancelled = false
    /// The store's commit serial when the observer joined its list.
    @exclusivity(unchecked) private var createdAt: UInt64 = 0

    init(store: Store<State>, reader: ChangeReader<State, Argument>, body: @escaping @Sendable (Argument) -> Void) {
        self.store = store
        self.reader = reader
        self.body = body
    }

    override class var needsOldState: Bool { false }

    override func didJoin(atSerial serial: UInt64) {
        createdAt = serial
    }

    func storeNameIfNothingChanged() -> String? {
        store.lock.withLock { store.commitSerial == createdAt } ? typeName(type(of: store)) : nil
    }

    override func notify(_ change: StoreChange<State>, checking check: CancellationCheck) -> Bool {
        guard check.allowsCall({ isCancelled }) else { return false }
        if let argument = reader.argument(for: change) { body(argument) }
        return true
    }

    override func willChangeInPlace(from old: State, checking check: CancellationCheck) {
        guard check.allowsCall({ isCancelled }) else { return }
        reader.watch(old)
    }

    override func forgetWatchedState() {
        reader.forget()
    }

    override func notifyChangedInPlace(
        to new: State, by action: AnyAction, serial: UInt64, checking check: CancellationCheck
    ) -> Bool {
        guard check.allowsCall({ isCancelled }) else {
            reader.forget()
            return false
        }
        if let argument = reader.argument(changedTo: new, by: action) { body(argument) }
        return true
    }

    override func isGone(keepingOwnerIn owners: inout [AnyObject]) -> Bool { isCancelled }

    override class var traceLabel: String { "token observer" }

    func cancel() {
        var released: Any?
        store.lock.lock()
        _ = cancel(holding: store.lock, releasing: &released)
        store.lock.unlock()
        withExtendedLifetime(released) {}  // NB: released outside the lock: it may run user deinits
    }

    func cancel(holding lock: Lock, releasing released: inout Any?) -> Bool {
        guard lock === store.lock else { return false }
        if !isCancelled, let compaction = store.vacate(slot) { released = compaction }
        isCancelled = true
        store.lock.advanceGeneration()
        return true
    }
}
