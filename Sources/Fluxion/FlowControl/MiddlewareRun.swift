import CFluxionAtomics

/// One action's way through the middleware chain: what its ``MiddlewareNext`` values share.
///
/// A dispatcher reuses one run from action to action, so that passing an
/// action down the chain neither allocates nor counts references to the
/// dispatcher, which its stores' weak references make costly. A run whose
/// `next` a middleware kept past its call is not reused: it keeps the
/// dispatcher alive instead, for that `next`, which is refused when called,
/// and lets its middleware go, as that `next` never reaches them.
@usableFromInline
final class MiddlewareRun {
    /// NB: not retained while the dispatcher keeps the run for reuse, as its `MiddlewareRuns` owns the
    /// run then; `keeper` retains it once a kept `next` takes the run out of the dispatcher's hands.
    let unretainedDispatcher: Unmanaged<Dispatcher>
    private var keeper: Dispatcher?
    /// The chain the run goes through, outermost first; not empty until `outlive()` empties it.
    private var chain: [MiddlewareEntry]
    /// `chain`'s entries, which it holds, lent to their calls without a reference count.
    private var unretainedChain: [Unmanaged<MiddlewareEntry>]
    /// How many middleware the chain has: a `next` at this position reaches the stores.
    let count: Int
    /// The recorder of the journal attached when the run was made: it sees the action reach the stores.
    private(set) var recorder: JournalRecorder?
    /// The version of the chain, as ``MiddlewareChain`` counts them.
    let version: UInt64
    /// Whether the stores' changes are gathered for the middleware.
    let collectsChanges: Bool
    /// The thread running an action through the chain now, or zero: a C11 atomic, which a `next`
    /// called on any thread reads first. Only the thread it names may read the fields below.
    /// Zero too while the action reaches the stores: their handlers and observers may not pass it on again.
    private let runningThread = UnsafeMutablePointer<fluxion_counter>.allocate(capacity: 1)
    /// The name the action was dispatched with, and its routes.
    /// NB: the list is lent by the dispatch, which holds it until the run ends.
    private var name = ""
    private var unretainedList: Unmanaged<RouteList>?

    init(
        dispatcher: Dispatcher, chain: [MiddlewareEntry], recorder: JournalRecorder?, version: UInt64,
        collectsChanges: Bool
    ) {
        unretainedDispatcher = Unmanaged.passUnretained(dispatcher)
        self.chain = chain
        self.recorder = recorder
        unretainedChain = chain.map(Unmanaged.passUnretained)
        count = chain.count
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

    /// Passes `action` on from the `next` at `position`: to the middleware there, or, past the last, to the stores.
    ///
    /// A `next` kept past its run, taken to another thread, or called by a handler or observer of the
    /// action it passes on, is refused here, before it reads the chain, which its run may hold no more.
    @usableFromInline
    func pass(_ action: AnyAction, from position: Int) throws -> [AnyStoreChange] {
        let thread = ThreadID.current
        guard isRunning(on: thread) else { throw FluxionError.middlewareNextOutsideDispatch(action.name) }
        // NB: the dispatcher outlives this call: it is running the chain, so its turn holder holds it.
        return try unretainedDispatcher._withUnsafeGuaranteedRef { dispatcher in
            // NB: the common hop, straight to the next middleware; a trace records each hop's span.
            guard position < count, dispatcher.transaction.tracer == nil else {
                return try dispatcher.forward(action, from: position, of: self, on: thread)
            }
            return try unretainedChain[position]._withUnsafeGuaranteedRef {
                try $0.dispatch(action, next: MiddlewareNext(run: self, position: position + 1))
            }
        }
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

    /// Whether `thread` runs an action through this run now, short of its stores; only then may it ask
    /// for `routes(of:)`.
    func isRunning(on thread: ThreadID) -> Bool {
        fluxion_counter_load(runningThread) == UInt64(thread.raw)
    }

    /// Passes the action to the stores: no `next` of the run is served until `leaveStores(on:)`.
    func enterStores() {
        fluxion_counter_store(runningThread, 0)
    }

    /// Takes the action back from the stores, on `thread`, which runs it.
    func leaveStores(on thread: ThreadID) {
        fluxion_counter_store(runningThread, UInt64(thread.raw))
    }

    /// The routes of the action the run began, if `name` is still its name; lent by the dispatch.
    func routes(of name: String) -> Unmanaged<RouteList>? {
        name == self.name ? unretainedList : nil
    }

    /// A `next` of the run outlived its call: keeps the dispatcher alive for as long as the run lives,
    /// and lets the middleware go.
    ///
    /// NB: the run has ended, so every `next` of it is refused before it reads the chain.
    func outlive() {
        keeper = dispatcher
        unretainedChain = []
        chain = []
        recorder = nil
    }
}
