/// A hold on a dispatcher: while any is held, actions wait instead of running.
///
/// Get one from ``Dispatcher/suspend()``. Release it with ``release()``, or
/// let it go: it releases itself when deallocated, so a forgotten suspension
/// never leaves the dispatcher stuck.
public final class DispatchSuspension: @unchecked Sendable {  // `released` guarded by `lock`
    private let dispatcher: Dispatcher
    private let lock = Lock()
    private var released = false

    init(_ dispatcher: Dispatcher) {
        self.dispatcher = dispatcher
        dispatcher.beginSuspension()
    }

    deinit {
        release()
    }

    /// Whether ``release()`` was called.
    public var isReleased: Bool {
        lock.withLock { released }
    }

    /// Ends this suspension; calling it again does nothing.
    ///
    /// When it is the last one held, the actions dispatched meanwhile run now,
    /// in the order they were dispatched: on this thread, or, if an action is
    /// running, right after it on its thread.
    public func release() {
        let isFirst = lock.withLock {
            defer { released = true }
            return !released
        }
        if isFirst { dispatcher.endSuspension() }
    }
}

extension Dispatcher {
    /// Pauses the dispatcher until the returned suspension is released.
    ///
    /// ```swift
    /// let suspension = dispatcher.suspend()
    /// try dispatcher.dispatch(.refresh)  // returns at once: queued, not applied
    /// try dispatcher.dispatchBypassingSuspension(.logIn, payload: credentials)  // runs now
    /// suspension.release()  // `.refresh` runs now
    /// ```
    ///
    /// While suspended, a dispatch from any thread returns at once, without
    /// throwing: the action waits, in order, and none is lost. Handler errors
    /// of those actions go to ``onQueuedError`` and to the stores' observers.
    /// Suspensions nest: the actions run when the last one is released. An
    /// action that is running when the dispatcher is suspended finishes, with
    /// the actions it queues. Batches and ``dispatchBypassingSuspension(_:payload:error:)``
    /// run even while suspended. ``waitUntilDrained()`` waits for the waiting
    /// actions to have run.
    public func suspend() -> DispatchSuspension {
        DispatchSuspension(self)
    }

    /// Runs `body` with the dispatcher suspended, and releases the suspension when `body` returns or throws.
    ///
    /// ```swift
    /// try dispatcher.withSuspension {
    ///     try dispatcher.dispatch(.refresh)  // waits
    ///     try dispatcher.dispatchBypassingSuspension(.logIn, payload: credentials)  // runs now
    /// }  // `.refresh` runs here
    /// ```
    ///
    /// Prefer it to keeping a ``DispatchSuspension`` in a local constant: the
    /// optimiser may release an unused local right after its last use, ending
    /// the suspension early.
    public func withSuspension<Value>(_ body: () throws -> Value) rethrows -> Value {
        let suspension = suspend()
        defer { suspension.release() }
        return try body()
    }

    /// Dispatches a typed action, even while the dispatcher is suspended.
    ///
    /// Use it for the action that must run before the ones waiting — to finish
    /// a log-in, say. Otherwise it behaves as ``dispatch(_:payload:error:)``.
    public func dispatchBypassingSuspension<Payload>(
        _ name: ActionName<Payload>,
        payload: Payload,
        error: (any Error)? = nil
    ) throws {
        try receive(name.rawValue, payload: payload, error: error, exclusively: true)
    }

    /// Dispatches a typed action without a payload, even while the dispatcher is suspended.
    public func dispatchBypassingSuspension(_ name: ActionName<Void>, error: (any Error)? = nil) throws {
        try receive(name.rawValue, payload: (), error: error, exclusively: true)
    }

    /// Dispatches an untyped action, even while the dispatcher is suspended.
    public func dispatchBypassingSuspension(_ action: AnyAction) throws {
        try receive(action, exclusively: true)
    }
}
