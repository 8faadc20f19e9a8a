/// Routes actions to the stores registered with it, one action at a time, each all-or-nothing.
///
/// Register store types once, at startup; the dispatcher creates each store on
/// first need and keeps it for its own life:
///
/// ```swift
/// let dispatcher = Dispatcher()
/// try dispatcher.register(CounterStore.self)
/// try dispatcher.dispatch(.increment, payload: 1)
/// let counter = try dispatcher.store(CounterStore.self)
/// ```
///
/// Dispatch is serialized: one action at a time flows through every store
/// that handles its name, in registration order (``waitFor(_:)`` reorders
/// within an action). Each action is a transaction: if any of its handlers
/// throws, every store it reached keeps the state it had before, and no
/// observer hears of it. A dispatch from inside a handler or an observer is
/// queued and runs, in order, before the outermost ``dispatch(_:)->()``
/// returns; dispatches from other threads wait their turn. No handler or
/// observer ever runs while a Fluxion lock is held.
///
/// ``shared`` serves apps; create independent instances for tests or modules.
public final class Dispatcher: Sendable {
    /// The dispatcher apps share.
    public static let shared = Dispatcher()

    /// What threads share: the name index, the dispatch turn, the middleware and the hooks.
    let state: Guarded<DispatcherState>
    /// The thread holding the dispatch turn, published by `state.turn` for ``holdsTurn(_:)`` to read unlocked.
    let turnHolder = AtomicThreadID()
    /// The running action or batch; only the thread holding the dispatch turn touches it.
    let transaction = Transaction()
    /// The runs of the middleware chain; only the thread holding the dispatch turn touches them.
    let middlewareRuns = MiddlewareRuns()
    /// The running step, and the next step's serial; only the thread holding the dispatch turn touches it.
    let steps = StepLedger()
    /// Whether this dispatcher ever started a task (set as the first registers, before it runs, and never
    /// cleared: a task that one starts inherits its task-local value, and may outlive it); see ``currentTask``.
    let hasStartedTasks = AtomicFlag()
    /// Set by the first cancellation of a task, and never cleared: until then, no dispatch checks its task.
    let hasCancelledTasks = AtomicFlag()
    /// The task registry's count of cancellations, for the turn holder to read unlocked (see `EffectStarts`).
    let taskCancellations = AtomicCounter()
    /// How many tracked tasks may still hold the dispatcher; ``shutdown()`` waits for none to.
    let taskHolds = TaskHolds()
    /// Whether a journal replays into this dispatcher: the actions its steps queue are not run (see
    /// `replaying(_:)`). Set under the lock as replays begin and end; read unlocked by each queued action.
    let isReplaying = AtomicFlag()
    /// The observers of every store; see `Dispatcher+Observation.swift`.
    let relay = ChangeRelay()
    /// The archivers of the persistent stores, and the persistence error hook.
    let persistenceCenter = PersistenceCenter()
    /// The error types a journal records as values and a replay decodes; see ``registerReplayableError(_:)``.
    let replayableErrors = ReplayableErrors()

    /// Creates an independent dispatcher with no stores.
    public init() {
        state = Guarded(DispatcherState(turn: TurnState(publishingHolderIn: turnHolder)), waitable: true)
    }

    deinit {
        // NB: letting go of a dispatcher writes what its persistence has pending, on this thread, then
        // releases the archive locations it owned (see `PersistenceCenter.end()`).
        persistenceCenter.end()
    }

    // MARK: Dispatching

    /// Dispatches a typed action to every store that handles its name.
    ///
    /// ```swift
    /// try dispatcher.dispatch(.addTodo, payload: "Buy milk")
    /// ```
    ///
    /// The action is all-or-nothing: if a handler throws, every store it
    /// reached keeps its state from before the action, the actions its
    /// handlers dispatched are dropped, no observer hears of it, and this
    /// throws the first error. An action that *carries* an `error` is a change
    /// like any other.
    ///
    /// When called from a handler or an observer, the action is queued and
    /// runs after the current one, before the outermost dispatch returns; the
    /// call then returns at once without throwing, and the queued action's
    /// errors go to ``onQueuedError``. Called while another thread dispatches,
    /// it waits in line for the turn, and has it within a bounded number of
    /// turns (see <doc:ThreadingAndReentrancy>).
    ///
    /// - Parameters:
    ///   - name: The action name; it fixes the payload type.
    ///   - payload: The value to carry.
    ///   - error: An error to carry, for actions that report a failure.
    /// - Throws: The first error a handler threw, or
    ///   ``FluxionError/payloadTypeMismatch(action:expected:actual:)`` if the
    ///   name's handlers take another payload type, in which case no store is touched.
    public func dispatch<Payload>(_ name: ActionName<Payload>, payload: Payload, error: (any Error)? = nil) throws {
        try receive(name.rawValue, payload: payload, error: error)
    }

    /// Dispatches a typed action without a payload.
    ///
    /// - Throws: See ``dispatch(_:payload:error:)``.
    public func dispatch(_ name: ActionName<Void>, error: (any Error)? = nil) throws {
        try receive(name.rawValue, payload: (), error: error)
    }

    /// Dispatches an action by raw name, with a payload of any type.
    ///
    /// ```swift
    /// try dispatcher.dispatch(AnyAction(name: "addTodo", payload: "Buy milk"))
    /// ```
    ///
    /// - Throws: ``FluxionError/payloadTypeMismatch(action:expected:actual:)``
    ///   when the name's handlers expect another payload type (no store is
    ///   touched), or the first error a handler threw.
    public func dispatch(_ action: AnyAction) throws {
        try receive(action)
    }

    /// Runs the handler of another store for the current action first.
    ///
    /// Call it from a handler that needs another store's updated state. If the
    /// other store has handled the action already, or does not handle it,
    /// `waitFor` returns at once.
    ///
    /// - Throws: ``FluxionError/waitForCycle(_:)`` when the stores wait for
    ///   each other (the path names them); ``FluxionError/waitForOutsideDispatch(_:)``
    ///   when not called from a handler of this dispatcher's current action;
    ///   ``FluxionError/storeNotRegistered(_:waitingStore:action:)`` for an
    ///   unregistered type; or the error the other store's handler threw.
    public func waitFor<State, S: Store<State>>(_ type: S.Type) throws {
        _ = try runFirst(type)
    }

    /// Runs `body` between two actions, so that it reads every store in one consistent state.
    ///
    /// ```swift
    /// let (draft, sent) = dispatcher.read {
    ///     (composer.state.draft, messages.state.sent.count)
    /// }
    /// ```
    ///
    /// Reading one store's ``Store/state`` is always consistent; reading two
    /// one after the other may see an action commit in between. `read` waits
    /// for the running action (or batch) to end and keeps the next one from
    /// starting until `body` returns; while other threads dispatch, it waits in
    /// line for the turn, and has it within a bounded number of turns (see
    /// <doc:ThreadingAndReentrancy>). Called from a handler, an observer or a
    /// middleware, it runs at once: inside a step (from a handler), it sees
    /// the step's states so far, each computed store computed from its
    /// sources as staged so far; from an observer, the committed states. A
    /// source and its computed store always agree (see
    /// ``register(_:computedFrom:compute:)``).
    /// Keep `body` short: every dispatch waits for it. Actions it dispatches
    /// run after it (or, while the dispatcher is suspended, once the suspension ends).
    public func read<Value>(_ body: () throws -> Value) rethrows -> Value {
        try withTurn(body)
    }

    /// Whether an action is running through this dispatcher now, on any thread.
    ///
    /// While a dispatch waits for another thread to create a store it needs,
    /// before its first handler runs, it gives up its turn: this may then be
    /// `false`, or `true` for another thread's dispatch.
    public var isDispatching: Bool {
        state.withLock { $0.turn.holder != nil }
    }
}
