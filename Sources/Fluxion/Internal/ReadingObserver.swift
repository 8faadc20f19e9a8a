/// An observer that needs no old state: its ``ChangeReader`` picks the argument of each call, and its
/// store may change the state in place. Its subclasses say whom a call reaches: an owner, or a token's body.
class ReadingObserver<State: Sendable, Argument: Sendable>: Observer<State>, @unchecked Sendable {
    // NB: `isCancelled` is guarded by the store's lock; `reader`'s kept value only the turn holder touches.
    let reader: ChangeReader<State, Argument>
    var isCancelled = false

    init(reader: ChangeReader<State, Argument>) {
        self.reader = reader
    }

    override class var needsOldState: Bool { false }

    /// Calls the observer with the argument `argument` makes, if any, unless the observer is gone
    /// (then `argument` is not called); returns `false` when it is gone.
    func call(with argument: () -> Argument?) -> Bool { false }

    override func notify(_ change: StoreChange<State>, checking check: CancellationCheck) -> Bool {
        guard check.allowsCall({ isCancelled }) else { return false }
        return call { reader.argument(for: change) }
    }

    override func willChangeInPlace(from old: State, serial: UInt64, checking check: CancellationCheck) {
        // NB: an owner is checked at the delivery: loading it twice would cost a weak load more.
        guard check.allowsCall({ isCancelled }) else { return }
        reader.watch(old)
    }

    override func forgetWatchedState() {
        reader.forget()
    }

    override func notifyChangedInPlace(
        to new: State, by action: AnyAction, serial: UInt64, checking check: CancellationCheck
    ) -> Bool {
        guard check.allowsCall({ isCancelled }), call(with: { reader.argument(changedTo: new, by: action) }) else {
            reader.forget()
            return false
        }
        return true
    }
}

/// An owner-bound observer that needs no old state.
final class OwnedReadingObserver<State: Sendable, Owner: AnyObject & Sendable, Argument: Sendable>:
    ReadingObserver<State, Argument>, @unchecked Sendable
{
    // NB: `owner` is written once, in `init`.
    private weak var owner: Owner?
    private let body: @Sendable (Owner, Argument) -> Void

    init(owner: Owner, reader: ChangeReader<State, Argument>, body: @escaping @Sendable (Owner, Argument) -> Void) {
        self.owner = owner
        self.body = body
        super.init(reader: reader)
    }

    override func call(with argument: () -> Argument?) -> Bool {
        guard let owner else { return false }
        if let argument = argument() { body(owner, argument) }
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

/// A token observer that needs no old state.
final class TokenReadingObserver<State: Sendable, Argument: Sendable>: ReadingObserver<State, Argument>,
    ReleaseChecking, @unchecked Sendable
{  // `createdAt`: the store's lock
    // NB: a strong reference, as for `TokenObserver`: the token cancels at the latest when released.
    private let store: Store<State>
    private let body: @Sendable (Argument) -> Void
    /// The store's commit serial when the observer joined its list.
    private var createdAt: UInt64 = 0

    init(store: Store<State>, reader: ChangeReader<State, Argument>, body: @escaping @Sendable (Argument) -> Void) {
        self.store = store
        self.body = body
        super.init(reader: reader)
    }

    override func didJoin(atSerial serial: UInt64) {
        createdAt = serial
    }

    func storeNameIfNothingChanged() -> String? {
        store.lock.withLock { store.commitSerial == createdAt } ? typeName(type(of: store)) : nil
    }

    override func call(with argument: () -> Argument?) -> Bool {
        if let argument = argument() { body(argument) }
        return true
    }

    override func isGone(keepingOwnerIn owners: inout [AnyObject]) -> Bool { isCancelled }

    override class var traceLabel: String { "token observer" }

    // NB: as `TokenObserver` cancels. Shared through a protocol extension, the two cost W5 (observe and
    // cancel) 16% more instructions, its generic witnesses unspecialised, so each keeps its own.
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
