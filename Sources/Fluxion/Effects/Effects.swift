import Foundation

/// Asks for asynchronous work — an effect — that belongs to the action a handler is handling.
///
/// A handler that takes a third parameter gets one; a closure names it with `with: .effects`:
///
/// ```swift
/// HandlerTable()
///     .on(.search, with: .effects) { state, action, effects in
///         state.query = action.payload
///         state.isLoading = true
///         effects.run(id: "search", cancelInFlight: true) { dispatcher in
///             let results = try await api.search(action.payload)
///             try dispatcher.dispatch(.searchFinished, payload: results)
///         }
///     }
/// ```
///
/// An effect is part of the action's transaction: it starts only when the
/// action — or the batch it is part of — commits, in the order asked for,
/// before the outermost `dispatch` returns; its work begins once that
/// dispatch has run everything it queued, so that a cancellation from a later
/// step of the same dispatch keeps the work from ever running. If the action
/// rolls back (a handler of any store throws), nothing starts, and its
/// `cancelInFlight` cancels nothing. Once committed, an effect is a task the dispatcher tracks,
/// as one started with ``Dispatcher/dispatchTask(id:cancelInFlight:priority:_:)``:
/// cancellable by id, awaited by ``Dispatcher/waitUntilDrained()``, its
/// errors reported to ``Dispatcher/onTaskError``. A plain `Task` its work
/// starts is not tracked but belongs to it: its dispatches are the effect's
/// (its cause, its cancellation), and its `waitUntilDrained()` does not wait
/// for the effect while that runs. A ``Journal`` records
/// which step started it and which steps it dispatched; a replay dispatches
/// those steps from the journal and starts no effect. See <doc:WorkingWithEffects>.
///
/// An `Effects` is valid only during the handler call it was given to, on
/// its thread: asked later (even in another handler of the same action), the effect does not start, and
/// ``FluxionError/effectOutsideHandler(_:)`` reaches ``Dispatcher/onTaskError``. Kept, it keeps no
/// dispatcher alive: asked once its dispatcher is gone, it starts nothing and says so on standard error.
public struct Effects: Sendable {
    /// The way to the dispatcher of the handler's store; `nil` for a handler run without one.
    ///
    /// NB: not the dispatcher: a store holds it weakly, and a weakly held object's reference counts take the
    /// runtime's slow path. During the handler's call its thread holds the turn, and is lent the dispatcher.
    @usableFromInline let link: TurnLink?
    /// The handler call it was given to: kept past that call, it is refused, in a later handler of the
    /// same step too.
    let call: UInt64

    /// Effects for the handler the dispatcher's turn holder is calling now, for a store linked by `link`.
    @usableFromInline
    init(_ link: PublishedTurnLink) {
        let link = link.link?.takeUnretainedValue()
        self.link = link
        // NB: read by the turn holder, in the handler's call; a thread without the turn gets no call.
        guard let link, link.turn.names(.current) else {
            call = 0
            return
        }
        call = link.dispatcher._withUnsafeGuaranteedRef { $0.transaction.handlerCall }
    }

    /// Asks for an effect with no id: it starts when the action commits.
    ///
    /// - Parameters:
    ///   - priority: The priority of the effect's task.
    ///   - work: The effect: it reports what it finds by dispatching actions on the dispatcher it is given.
    public func run(
        priority: TaskPriority? = nil,
        _ work: @escaping @Sendable (Dispatcher) async throws -> Void
    ) {
        request(id: nil, cancellingInFlight: false, priority: priority, work)
    }

    /// Asks for an effect under an id, to cancel it by that id or replace it: it starts when the action commits.
    ///
    /// With `cancelInFlight`, the tasks under `id` asked for before it are
    /// cancelled when this effect starts — when the action commits, not
    /// before: an action that rolls back cancels nothing. Those whose work has
    /// not begun never run it.
    ///
    /// - Parameters:
    ///   - id: The id to cancel the effect by, with ``Dispatcher/cancelTasks(id:)``.
    ///   - cancelInFlight: Whether to cancel the tasks running under `id` first.
    ///   - priority: The priority of the effect's task.
    ///   - work: The effect: it reports what it finds by dispatching actions on the dispatcher it is given.
    public func run<ID: Hashable & Sendable>(
        id: ID,
        cancelInFlight: Bool = false,
        priority: TaskPriority? = nil,
        _ work: @escaping @Sendable (Dispatcher) async throws -> Void
    ) {
        request(id: TaskKey(id), cancellingInFlight: cancelInFlight, priority: priority, work)
    }

    /// Cancels the tasks under `id` — effects and tasks started with `dispatchTask` — when the action
    /// commits; an action that rolls back cancels nothing.
    ///
    /// ```swift
    /// .on(.logOut, with: .effects) { session, _, effects in
    ///     session = Session()
    ///     effects.cancel(id: "sync")
    /// }
    /// ```
    ///
    /// It takes its place among the step's effects: it reaches every task
    /// under `id` asked for before it — running, or asked for earlier in the
    /// same step, the same batch, or an earlier step of the same dispatch (an
    /// effect asked for before an observer dispatched the cancelling action,
    /// say), whose work then never runs: the effect ends cancelled, and the
    /// journal says so. An effect asked for after it starts, so `cancel` then
    /// `run` restarts a sync. The journal records the cancellation with the
    /// step's effects, as `cancel sync`, ended at once.
    ///
    /// ``Dispatcher/cancelTasks(id:)`` called from a handler reaches the same
    /// tasks; the one difference is that `effects.cancel(id:)` belongs to the
    /// step — it acts only if the step commits, and the journal lists it among
    /// the step's effects — where `cancelTasks(id:)` acts at once, even if the step then rolls back.
    ///
    /// - Parameter id: The id of the tasks to cancel, as given to ``run(id:cancelInFlight:priority:_:)``
    ///   or ``Dispatcher/dispatchTask(id:cancelInFlight:priority:_:)``.
    public func cancel<ID: Hashable & Sendable>(id: ID) {
        let key = TaskKey(id)
        guard link?.withDispatcher({ $0.requestCancellation(of: key, inCall: call) }) == true else {
            let error = TaskError(
                .refused, taskID: id, action: nil, error: FluxionError.effectOutsideHandler("\(id)"))
            return FileHandle.standardError.write(
                Data("Fluxion: \(error) (its dispatcher is gone, or the handler ran without one)\n".utf8))
        }
    }

    private func request(
        id: TaskKey?,
        cancellingInFlight: Bool,
        priority: TaskPriority?,
        _ work: @escaping @Sendable (Dispatcher) async throws -> Void
    ) {
        // NB: the turn holder's dispatcher runs the handler, and so lives: it is lent without a reference count
        // (it is weakly referenced, and such an object's counts take the runtime's slow path).
        if let dispatcher = link?.dispatcher, link?.turn.names(.current) == true {
            return dispatcher._withUnsafeGuaranteedRef {
                $0.requestEffect(id: id, cancellingInFlight: cancellingInFlight, priority: priority, inCall: call, work)
            }
        }
        guard let dispatcher = link?.owner else {
            let error = TaskError(
                .refused, taskID: id?.value, action: nil, error: FluxionError.effectOutsideHandler(nil))
            return FileHandle.standardError.write(
                Data("Fluxion: \(error) (its dispatcher is gone, or the handler ran without one)\n".utf8))
        }
        dispatcher.requestEffect(id: id, cancellingInFlight: cancellingInFlight, priority: priority, inCall: call, work)
    }
}
