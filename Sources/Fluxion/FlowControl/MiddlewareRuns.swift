/// A dispatcher's runs of its middleware chain: whether one runs an action now, and the spare run
/// that each action borrows in turn.
///
/// Only the thread holding the dispatch turn touches it: ``Dispatcher/removeMiddleware(_:)``
/// takes the turn to drop a run that holds what it removed.
final class MiddlewareRuns: @unchecked Sendable {  // touched only by the thread holding the dispatch turn
    private struct State {
        /// The run each action borrows in turn, while no `next` of it outlived its call.
        var spare: MiddlewareRun?
        /// Whether an action runs through `spare` now: one that started meanwhile would make a run of its own
        /// (none does today, as what an action's code dispatches is queued, and a batch is refused).
        var isLent = false
        /// The oldest version of the chain a run may be kept for: a removal raises it, so that a run
        /// still going through a removed middleware is not kept once its action ends.
        var oldestVersion: UInt64 = 0
        /// Whether the chain is running an action: the turn is then kept throughout.
        var isRunning = false
    }

    // unchecked: W11 +27 instructions/dispatch without it (callgrind): no run-time check is left, but the
    // optimiser no longer inlines `takeBack()`
    @exclusivity(unchecked) private var state = State()

    /// Whether the chain is running an action: the turn is then kept throughout.
    var isRunning: Bool { state.isRunning }

    /// Lends the spare run, if it is a run of the chain's `version` that no action runs through now.
    ///
    /// NB: lent without a reference count (one would cost every action): the spare stays here until
    /// `takeBack()`, which a removal waits for.
    func lend(of version: UInt64) -> Unmanaged<MiddlewareRun>? {
        guard !state.isLent, let run = state.spare, run.version == version else { return nil }
        state.isLent = true
        return Unmanaged.passUnretained(run)
    }

    /// Takes the lent run back once its action has ended: keeps it for the next action, unless a `next`
    /// of it outlived its call or the chain lost a middleware since; returns a dropped run, for the
    /// caller to release.
    func takeBack() -> MiddlewareRun? {
        state.isLent = false
        // NB: a `next` kept past its call holds the run: it keeps the dispatcher, and lets the middleware go.
        if !isKnownUniquelyReferenced(&state.spare) {
            state.spare?.outlive()
            return state.spare.take()
        }
        guard let run = state.spare, run.version < state.oldestVersion else { return nil }
        return state.spare.take()
    }

    /// Keeps `run`, a run made for one action, which no `next` outlived, for the next action to borrow,
    /// unless the chain lost a middleware since or the spare is lent; returns the run it replaces.
    func keep(_ run: MiddlewareRun) -> MiddlewareRun? {
        guard !state.isLent, run.version >= state.oldestVersion else { return nil }
        defer { state.spare = run }
        return state.spare
    }

    /// Drops the spare run, and each run that ends from now on, if it is older than `version`; returns
    /// the dropped run, for the caller to release.
    ///
    /// NB: a lent spare is dropped when it is taken back: its action still goes through it.
    func drop(before version: UInt64) -> MiddlewareRun? {
        state.oldestVersion = max(state.oldestVersion, version)
        guard !state.isLent, let run = state.spare, run.version < version else { return nil }
        return state.spare.take()
    }

    /// Starts running an action through the chain; returns whether one was running, for `end(restoring:)`.
    func begin() -> Bool {
        defer { state.isRunning = true }
        return state.isRunning
    }

    /// Ends the run `begin()` started.
    func end(restoring outer: Bool) {
        state.isRunning = outer
    }
}
