/// A dispatcher's runs of its middleware chain: whether one runs an action now, and the spare run
/// kept for the next action to reuse.
///
/// Only the thread holding the dispatch turn touches it: ``Dispatcher/removeMiddleware(_:)``
/// takes the turn to drop a run that holds what it removed.
final class MiddlewareRuns: @unchecked Sendable {  // touched only by the thread holding the dispatch turn
    /// A run that ended with no `next` outliving it.
    @exclusivity(unchecked) private var spare: MiddlewareRun?
    /// The oldest version of the chain a run may be kept for: a removal raises it, so that a run
    /// still going through a removed middleware is not kept once its action ends.
    @exclusivity(unchecked) private var oldestVersion: UInt64 = 0
    /// Whether the chain is running an action: the turn is then kept throughout.
    @exclusivity(unchecked) private(set) var isRunning = false

    /// Takes the spare run, if it is a run of the chain's `version`.
    func take(of version: UInt64) -> MiddlewareRun? {
        guard let spare = spare.take() else { return nil }
        return spare.version == version ? spare : nil
    }

    /// Keeps `run`, which no `next` outlived, for the next action to reuse, unless the chain lost a middleware since.
    func keep(_ run: MiddlewareRun) {
        if run.version >= oldestVersion { spare = run }
    }

    /// Drops the spare run, and each run that ends from now on, if it is older than `version`; returns
    /// the dropped run, for the caller to release.
    func drop(before version: UInt64) -> MiddlewareRun? {
        oldestVersion = max(oldestVersion, version)
        guard let run = spare, run.version < version else { return nil }
        return spare.take()
    }

    /// Starts running an action through the chain; returns whether one was running, for `end(restoring:)`.
    func begin() -> Bool {
        defer { isRunning = true }
        return isRunning
    }

    /// Ends the run `begin()` started.
    func end(restoring outer: Bool) {
        isRunning = outer
    }
}
