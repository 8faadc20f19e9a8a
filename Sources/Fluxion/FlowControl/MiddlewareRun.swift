import CFluxionAtomics

/// One action's way through the middleware chain: what its ``MiddlewareNext`` values share.
///
/// A dispatcher reuses one run from action to action, so that passing an
/// action down the chain neither allocates nor counts references to the
/// dispatcher, which its stores' weak references make costly. A run whose
/// `next` a middleware kept past its call is not reused: it keeps the
/// dispatcher alive instead, for that `next`, which is refused when called.
final class MiddlewareRun {
    /// NB: not retained while the dispatcher keeps the run for reuse, as its transaction owns the
    /// run then; `keeper` retains it once a kept `next` takes the run out of the dispatcher's hands.
    let unretainedDispatcher: Unmanaged<Dispatcher>
    private var keeper: Dispatcher?
    /// The chain the run goes through, outermost first; it is not empty.
    let chain: [MiddlewareEntry]
    /// `chain`'s entries, which it holds, lent to their calls without a reference count.
    private let unretainedChain: [Unmanaged<MiddlewareEntry>]
    /// The version of the chain, as ``MiddlewareChain`` counts them.
    let version: UInt64
    /// Whether the stores' changes are gathered for the middleware.
    let collectsChanges: Bool
    /// The thread running an action through the chain now, or zero: a C11 atomic, which a `next`
    /// called on any thread reads first. Only the thread it names may read the fields below.
    private let runningThread = UnsafeMutablePointer<fluxion_counter>.allocate(capacity: 1)
    /// The name the action was dispatched with, and its routes.
    /// NB: the list is lent by the dispatch, which holds it until the run ends.
    private var name = ""
    private var unretainedList: Unmanaged<RouteList>?
    /// Whether the action is reaching the stores now: their handlers and observers may not pass it on again.
    var isReachingStores = false

    init(dispatcher: Dispatcher, chain: [MiddlewareEntry], version: UInt64, collectsChanges: Bool) {
        unretainedDispatcher = Unmanaged.passUnretained(dispatcher)
        self.chain = chain
        unretainedChain = chain.map(Unmanaged.passUnretained)
        self.version = version
        self.collectsChanges = collectsChanges
        fluxion_counter_init(runningThread)
    }

    deinit {
        runningThread.deallocate()
    }

    var dispatcher: Dispatcher { unretainedDispatcher.takeUnretainedValue() }

    /// Passes `action` to the middleware at `position` of the chain.
    func dispatch(_ action: AnyAction, at position: Int, next: MiddlewareNext) throws -> [AnyStoreChange] {
        try unretainedChain[position]._withUnsafeGuaranteedRef { try $0.dispatch(action, next: next) }
    }

    /// Starts running the action named `name`, whose routes are `list`, on this thread.
    func begin(_ name: String, through list: RouteList) {
        self.name = name
        unretainedList = Unmanaged.passUnretained(list)
        fluxion_counter_store(runningThread, UInt64(ThreadID.current.raw))
    }

    /// Ends the action `begin` started.
    func end() {
        fluxion_counter_store(runningThread, 0)
        unretainedList = nil
    }

    /// Whether `thread` runs an action through this run now; only then may it ask for `routes(of:)`.
    func isRunning(on thread: ThreadID) -> Bool {
        fluxion_counter_load(runningThread) == UInt64(thread.raw)
    }

    /// The routes of the action the run began, if `name` is still its name.
    func routes(of name: String) -> RouteList? {
        name == self.name ? unretainedList?.takeUnretainedValue() : nil
    }

    /// Keeps the dispatcher alive for as long as the run lives: a `next` of it outlived its call.
    func keepDispatcher() {
        keeper = dispatcher
    }
}
