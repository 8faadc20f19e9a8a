import CFluxionAtomics

/// A store's way to its dispatcher while the calling thread holds that dispatcher's turn.
///
/// The store holds its dispatcher weakly (the dispatcher owns the store),
/// and a weakly referenced object's reference counts take the runtime's slow
/// path: a weak load and its release cost a `waitFor` about 120 instructions
/// and two atomic operations. A thread that holds the turn runs inside one of
/// the dispatcher's methods, whose caller keeps the dispatcher alive: that
/// thread may use it without a reference count. The turn's holder is read
/// here, from an object the store keeps, so that no other thread ever touches
/// a dispatcher that may be gone.
@usableFromInline
final class TurnLink: Sendable {
    /// The dispatcher's published turn holder.
    @usableFromInline let turn: AtomicThreadID
    /// The dispatcher, lent: only while `turn` names the calling thread is it known to be alive.
    @usableFromInline let dispatcher: Unmanaged<Dispatcher>
    /// The dispatcher, for a thread that does not hold its turn: `nil` once it is gone.
    weak let owner: Dispatcher?

    init(_ dispatcher: Dispatcher) {
        turn = dispatcher.turnHolder
        self.dispatcher = Unmanaged.passUnretained(dispatcher)
        owner = dispatcher
    }

    /// Calls `body` with the dispatcher: lent, without a reference count, on the thread holding its turn;
    /// on another thread, the dispatcher if it still exists. Returns `false` if it is gone.
    func withDispatcher(_ body: (Dispatcher) -> Void) -> Bool {
        if turn.names(.current) {
            dispatcher._withUnsafeGuaranteedRef(body)
            return true
        }
        guard let owner else { return false }
        body(owner)
        return true
    }
}

/// A store's ``TurnLink``, published once, when its dispatcher attaches the store, and read by any thread
/// without a lock: a thread that reads a store's state may race with that attach.
@usableFromInline
final class PublishedTurnLink: @unchecked Sendable {  // the value is a C11 atomic; `owner` is written once, before it
    private let storage = UnsafeMutablePointer<fluxion_counter>.allocate(capacity: 1)
    /// Keeps the published link, which readers are lent.
    private var owner: TurnLink?

    init() {
        fluxion_counter_init(storage)
    }

    deinit {
        storage.deallocate()
    }

    /// The link, lent without a reference count (this object keeps it); `nil` before the store is attached.
    @usableFromInline
    var link: Unmanaged<TurnLink>? {
        let bits = fluxion_counter_load(storage)
        guard bits != 0, let pointer = UnsafeRawPointer(bitPattern: UInt(bits)) else { return nil }
        return Unmanaged.fromOpaque(pointer)
    }

    /// Publishes `link`; called once, under the store's lock.
    func publish(_ link: TurnLink) {
        owner = link
        // NB: a release store: a reader that loads the link sees it whole.
        fluxion_counter_store(storage, UInt64(UInt(bitPattern: Unmanaged.passUnretained(link).toOpaque())))
    }
}
