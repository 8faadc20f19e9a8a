import Fluxion

/// A middleware made of a closure, for tests; it observes changes unless told not to.
struct ClosureMiddleware: Middleware {
    let body: @Sendable (AnyAction, MiddlewareNext) throws -> [AnyStoreChange]
    let observesChanges: Bool

    init(
        observesChanges: Bool = true,
        _ body: @escaping @Sendable (AnyAction, MiddlewareNext) throws -> [AnyStoreChange]
    ) {
        self.observesChanges = observesChanges
        self.body = body
    }

    func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
        try body(action, next)
    }
}

/// One dispatch of one test thread: the thread's index and its sequence number there.
struct SequencedTick: Sendable {
    var thread: Int
    var sequence: Int
}

extension ActionName where Payload == SequencedTick {
    static var sequencedTick: Self { "supportSequencedTick" }
}

/// Counts ticks, and the ticks that arrived out of their thread's order.
struct SequenceLedger: Sendable, Equatable {
    var total = 0
    /// The last sequence number seen from each thread.
    var last: [Int: Int] = [:]
    var outOfOrder = 0
    var duplicates = 0

    mutating func record(_ tick: SequencedTick) {
        let previous = last[tick.thread] ?? -1
        if tick.sequence <= previous { duplicates += 1 }
        if tick.sequence != previous + 1 { outOfOrder += 1 }
        last[tick.thread] = tick.sequence
        total += 1
    }

    /// The ledger after `threads` threads each dispatched `perThread` ticks once, in order.
    static func complete(threads: Int, perThread: Int) -> SequenceLedger {
        var ledger = SequenceLedger()
        for thread in 0..<threads {
            for sequence in 0..<perThread { ledger.record(SequencedTick(thread: thread, sequence: sequence)) }
        }
        return ledger
    }
}

/// Records every `.sequencedTick` in its ledger.
final class SequenceLedgerStore: Store<SequenceLedger>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: SequenceLedger()) }

    override class var handlers: HandlerTable<SequenceLedger> {
        HandlerTable().on(.sequencedTick) { state, action in state.record(action.payload) }
    }
}
