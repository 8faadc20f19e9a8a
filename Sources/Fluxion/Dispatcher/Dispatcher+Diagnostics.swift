import Foundation

extension Dispatcher {
    /// Called with each action that no store handles; `nil` by default.
    ///
    /// Dispatching a name no store handles is not an error: nothing changes,
    /// and this hook, if set, hears of it.
    ///
    /// The hook is one slot: setting it replaces the closure set before, which
    /// then hears nothing. To send these to several places, call each from one
    /// closure.
    public var onDeadLetter: (@Sendable (AnyAction) -> Void)? {
        get { state.withLock { $0.deadLetterHandler } }
        set {
            var handler = newValue
            state.withLock { swap(&handler, &$0.deadLetterHandler) }
            // NB: the replaced closure is released here, outside the lock: it may hold objects with a deinit.
        }
    }

    /// How many actions no store handled (middleware that drops an action handles it).
    public var deadLetterCount: Int {
        state.withLock { $0.deadLetters }
    }

    /// Called with each queued action that failed, and its error; by default, the error is written to standard error.
    ///
    /// A dispatch from inside a handler or an observer is queued and returns
    /// before the action runs, so its errors cannot reach that caller. Each
    /// goes to this hook — as do the errors of the actions
    /// ``send(_:payload:error:)`` dispatched, from anywhere — or, while it is `nil`, to standard error as a line
    /// `Fluxion: queued action NAME(PAYLOAD) failed: ERROR`, so that no error
    /// is silently lost. Set the hook to route them elsewhere (a logger, a
    /// test's recorder), or to `{ _, _ in }` to ignore them.
    ///
    /// The hook is one slot: setting it replaces the closure set before, which
    /// then hears nothing. To send these to several places, call each from one
    /// closure.
    public var onQueuedError: (@Sendable (AnyAction, any Error) -> Void)? {
        get { state.withLock { $0.queuedErrorHandler } }
        set {
            var handler = newValue
            state.withLock { swap(&handler, &$0.queuedErrorHandler) }
            // NB: the replaced closure is released here, outside the lock.
        }
    }

    /// Hands a queued action's error to ``onQueuedError``, or, without one, to standard error.
    func report(_ error: any Error, of action: AnyAction) {
        if let handler = state.withLock({ $0.queuedErrorHandler }) {
            handler(action, error)
        } else {
            FileHandle.standardError.write(Data("Fluxion: queued action \(action) failed: \(error)\n".utf8))
        }
    }

    /// Called with each error of the tasks the dispatcher tracks; by default, the error is written to standard error.
    ///
    /// Async work runs away from the code that started it, so its errors
    /// cannot be thrown to it. Each one reaches this hook as a ``TaskError``:
    /// an error a tracked task threw (other than the `CancellationError` of
    /// a task that was cancelled), a dispatch refused because its task was
    /// cancelled through the dispatcher, and a dispatch held while the
    /// journal showed the past and then dropped by ``Journal/resumeDiscardingLaterSteps()``.
    /// While the hook is `nil`, each is written to standard error as a line
    /// `Fluxion: DESCRIPTION`. `TestDispatcher` sets it, and fails the test for
    /// any task error the test did not receive.
    ///
    /// The hook is one slot: setting it replaces the closure set before, which
    /// then hears nothing. To send these to several places, call each from one
    /// closure.
    public var onTaskError: (@Sendable (TaskError) -> Void)? {
        get { state.withLock { $0.taskErrorHandler } }
        set {
            var handler = newValue
            state.withLock { swap(&handler, &$0.taskErrorHandler) }
            // NB: the replaced closure is released here, outside the lock.
        }
    }

    /// Hands a task's error to ``onTaskError``, or, without one, to standard error.
    func report(_ error: TaskError) {
        if let handler = state.withLock({ $0.taskErrorHandler }) {
            handler(error)
        } else {
            FileHandle.standardError.write(Data("Fluxion: \(error)\n".utf8))
        }
    }
}
