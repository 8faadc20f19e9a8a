import Fluxion

// The ledger the `Threading…Tests` suites dispatch to from many threads. `tick` stays
// `fileprivate`, as another test file declares a `tick` of its own: each file that uses it declares it too.

/// One dispatch of one thread: which thread, its sequence number, and whether
/// the thread had seen a token cancelled before dispatching it.
struct ThreadTick: Sendable {
    var thread: Int
    var sequence: Int
    var afterCancel = false
}

extension ActionName where Payload == ThreadTick {
    fileprivate static var tick: Self { "threadTick" }
    static var outer: Self { "threadOuter" }
    fileprivate static var inner: Self { "threadInner" }
}

/// How many threads the threading tests dispatch from.
let threadCount = 8

/// What the threads did: every tick counted, and the last sequence number of each thread.
struct ThreadLedger: Sendable, Equatable {
    var total = 0
    var last = Array(repeating: -1, count: threadCount)
    var outOfOrder = 0
    /// The thread whose `.outer` must be followed at once by its queued `.inner`.
    var awaitingInner: Int?
    var outers = 0
    var inners = 0
    var misplacedInners = 0

    /// Whether `total` matches the per-thread counts: a torn snapshot would break it.
    var isConsistent: Bool {
        total == last.reduce(0) { $0 + $1 + 1 }
    }
}

/// Records every tick; checks each thread's sequence numbers arrive in order.
final class ThreadLedgerStore: Store<ThreadLedger>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: ThreadLedger()) }

    override class var handlers: HandlerTable<ThreadLedger> {
        HandlerTable()
            .on(.tick) { state, action in
                let tick = action.payload
                if tick.sequence != state.last[tick.thread] + 1 { state.outOfOrder += 1 }
                state.last[tick.thread] = tick.sequence
                state.total += 1
            }
            .route(.outer, to: ThreadLedgerStore.outer)
            .on(.inner) { state, action in
                if state.awaitingInner != action.payload.thread { state.misplacedInners += 1 }
                state.awaitingInner = nil
                state.inners += 1
            }
    }

    func outer(_ state: inout ThreadLedger, _ action: Action<ThreadTick>) throws {
        if state.awaitingInner != nil { state.misplacedInners += 1 }
        state.awaitingInner = action.payload.thread
        state.outers += 1
        try dispatcher?.dispatch(.inner, payload: action.payload)
    }
}
