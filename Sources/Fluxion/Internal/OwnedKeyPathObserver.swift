/// An owner-bound key-path observer called on the dispatching thread.
///
/// NB: as an owner-bound selection observer (`OwnedReadingObserver` with a `SelectionReader`), which
/// a queued key-path observer still is, W12kw's dispatch cost 7,093 instructions, 2.1 × W12n's; as
/// this one, 4,110 (callgrind): see `KeyPathValueObserver` for what it saves.
final class OwnedKeyPathObserver<State: Sendable, Owner: AnyObject & Sendable, Value: Equatable & Sendable>:
    KeyPathValueObserver<State, Value>, @unchecked Sendable
{  // `isCancelled` guarded by the store's lock
    // NB: `owner` is written once, in `init`.
    private weak var owner: Owner?
    /// Builds each change it is told of: see `Store.observeValue(owner:_:sendingCurrentState:_:)`.
    private let body: @Sendable (Owner, Value, Value, AnyAction) -> Void
    private var isCancelled = false

    init(
        owner: Owner, keyPath: KeyPath<State, Value>, body: @escaping @Sendable (Owner, Value, Value, AnyAction) -> Void
    ) {
        self.owner = owner
        self.body = body
        super.init(keyPath)
    }

    override func allowsCall(_ check: CancellationCheck) -> Bool {
        check.allowsCall { isCancelled }
    }

    override func tell(
        from oldValue: Value, to newValue: Value, by action: AnyAction, serial: UInt64,
        checking check: CancellationCheck
    ) -> Bool {
        // NB: the owner is loaded only for a call: a change that leaves the value alone costs no weak load.
        guard let owner else { return false }
        body(owner, oldValue, newValue, action)
        return true
    }

    override func isGone(keepingOwnerIn owners: inout [AnyObject]) -> Bool {
        guard !isCancelled, let owner else { return true }
        owners.append(owner)
        return false
    }

    override class var traceLabel: String { "observer owned by \(typeName(Owner.self))" }

    /// A handle that cancels this observer of `store`; neither keeps the other, nor the store, alive.
    func handle(in store: Store<State>) -> ObservationHandle {
        ObservationHandle(lock: store.lock) { [weak store] in store?.cancel(self) }
    }

    override func markCancelled() -> Bool {
        defer { isCancelled = true }
        return !isCancelled
    }
}
