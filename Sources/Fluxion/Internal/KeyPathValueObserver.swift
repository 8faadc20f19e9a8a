/// An observer of the value at a key path of the state: a change reaches it only when that value
/// changed. Its subclasses say whom a change reaches: a group of token observers, or an owner.
///
/// NB: the dispatch path reads the value once a change, not twice: the value after one change is
/// kept as the value before the next, while no other change was committed (the store's commit
/// serial tells). A path of stored properties is read at its offset, without the key-path runtime
/// (about 400 instructions a read, 700 through a computed property such as `\.items.count`). And
/// this generic code names no type built from `Value` (an optional, a `ValueChange`): each would
/// cost a metadata look-up, about 330 instructions. W12k: 7,130 → 4,134 instructions a dispatch
/// (callgrind), 1.23 × W12n's. The kept value is the dispatch turn holder's, as a reader's (see `ChangeReader`).
class KeyPathValueObserver<State: Sendable, Value: Equatable & Sendable>: Observer<State>, @unchecked Sendable {
    // NB: `kept`, `keptSerial` and `isWatching` are the dispatch turn holder's; no lock guards them.
    let keyPath: KeyPath<State, Value>
    /// Where the value sits in `State`, when the path is of stored properties alone.
    private let offset: Int?
    /// The value after the change committed as `keptSerial`; initialised while that is not `nil`.
    private let kept = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    // unchecked: touched only by the dispatch turn holder, as `kept` (not measured apart)
    @exclusivity(unchecked) private var keptSerial: UInt64?
    /// Whether `willChangeInPlace` kept the value for the change to deliver next.
    @exclusivity(unchecked) private var isWatching = false

    init(_ keyPath: KeyPath<State, Value>) {
        self.keyPath = keyPath
        offset = MemoryLayout<State>.offset(of: keyPath)
    }

    deinit {
        if keptSerial != nil { kept.deinitialize(count: 1) }
        kept.deallocate()
    }

    override class var needsOldState: Bool { false }

    /// The value in `state`.
    final func value(in state: State) -> Value {
        guard let offset else { return state[keyPath: keyPath] }
        // NB: what `MemoryLayout.offset(of:)` documents as equivalent to the key path.
        return withUnsafePointer(to: state) {
            (UnsafeRawPointer($0) + offset).assumingMemoryBound(to: Value.self).pointee
        }
    }

    /// Whether the observer may be called; `false` when it was cancelled.
    func allowsCall(_ check: CancellationCheck) -> Bool { true }

    /// Tells whom the observer reaches that the value changed (or, for `.currentState`, what it is);
    /// returns `false` when the observer is gone.
    func tell(
        from oldValue: Value, to newValue: Value, by action: AnyAction, serial: UInt64,
        checking check: CancellationCheck
    )
        -> Bool
    { true }

    override func notify(_ change: StoreChange<State>, checking check: CancellationCheck) -> Bool {
        guard allowsCall(check) else { return false }
        let oldValue = value(in: change.oldState)
        let newValue = value(in: change.newState)
        // NB: the current-state call always counts.
        guard change.isCurrentState || oldValue != newValue else { return true }
        return tell(from: oldValue, to: newValue, by: change.action, serial: change.serial, checking: check)
    }

    override func willChangeInPlace(from old: State, serial: UInt64, checking check: CancellationCheck) {
        guard allowsCall(check) else { return }
        isWatching = true
        guard keptSerial != serial else { return }
        if keptSerial != nil { kept.deinitialize(count: 1) }
        kept.initialize(to: value(in: old))
        keptSerial = serial
    }

    override func forgetWatchedState() {
        isWatching = false
    }

    override func notifyChangedInPlace(
        to new: State, by action: AnyAction, serial: UInt64, checking check: CancellationCheck
    ) -> Bool {
        guard isWatching else { return true }
        isWatching = false
        guard allowsCall(check) else { return false }
        // NB: locals, not `kept`: a call may change the state again, and `kept` with it.
        let newValue = value(in: new)
        let oldValue = kept.move()
        kept.initialize(to: newValue)
        keptSerial = serial
        guard oldValue != newValue else { return true }
        return tell(from: oldValue, to: newValue, by: action, serial: serial, checking: check)
    }
}
