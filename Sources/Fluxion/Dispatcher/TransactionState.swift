/// How far the handler of one route of a transaction's action has run.
enum TransactionProgress {
    case pending
    case running
    case done
    /// Done, committed, and someone hears the change.
    case heard
}

/// What a ``Transaction`` knows; every access to it is short, and none spans user code.
struct TransactionState {
    /// Whether a transaction is open: from its first handler to its end.
    var isOpen = false
    /// The batch, while the transaction is one: open across actions, every change staged.
    var batch = BatchState()
    /// The first error: it rolls the whole transaction back.
    var failure: (any Error)?
    /// The routes of the action running now, with their stores; kept until its changes are delivered.
    /// NB: not retained (a reference count costs on every dispatch): the dispatch that runs the
    /// action holds the list until then.
    var unretainedList: Unmanaged<RouteList>?
    var list: RouteList? { unretainedList?.takeUnretainedValue() }
    var progress: ContiguousArray<TransactionProgress> = []
    /// The routes whose handlers are running, outermost first (a `waitFor` nests one).
    var running: ContiguousArray<Int> = []
    /// The running action's payload, its error and the trace recording its handlers, lent by its dispatch while
    /// its handlers run, for `waitFor` to run other handlers early; only when several stores handle it.
    /// NB: the dispatch keeps the payload, and the trace, until then: they are lent without copies or counts.
    var lent: LentPayload?
    var lentError: (any Error)?
    var lentRecorder: Unmanaged<TraceRecorder>?
    /// The name of the action running now, or last run.
    var actionName = ""
    /// Whether the running action stages its changes.
    var stages = false
    /// Whether the derive stage runs: computed stores are derived, after the handlers (or a batch's actions).
    var isDeriving = false
    /// How many transactions committed, and the serial of the step that committed last.
    var (commits, committedStep): (UInt64, UInt64) = (0, 0)
    /// The handler call running now (`0` for none), and the last one given.
    var (handlerCall, lastHandlerCall): (UInt64, UInt64) = (0, 0)
}
