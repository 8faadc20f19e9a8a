/// Code that sees every action before the stores do, and the changes it produced after.
///
/// A middleware passes an action on by calling `next`, and may change it
/// first, or drop it by not calling `next`. The code after `next` runs once
/// the stores have handled the action and their observers have heard of it;
/// a middleware that says it ``observesChanges`` gets the changes the action
/// produced from `next`:
///
/// ```swift
/// struct Auditor: Middleware {
///     var observesChanges: Bool { true }
///
///     func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
///         guard action.name != "debugOnly" else { return [] }  // dropped
///         let changes = try next(action)
///         print(action.name, "changed", changes.map(\.storeType))
///         return changes
///     }
/// }
/// dispatcher.addMiddleware(Auditor())
/// ```
///
/// An error thrown before `next` keeps the action from the stores; one thrown
/// after `next` reaches the caller, but the action has committed by then
/// (inside a batch, any error rolls the whole batch back).
///
/// Middleware runs on the dispatching thread, holding the dispatch turn, in
/// the order it was added; ``MiddlewareNext/dispatcher`` reads stores. An
/// action it dispatches is queued and runs after the current one. Actions
/// reach the middleware with their payload type erased; past the middleware
/// they match handlers as ``Dispatcher/dispatch(_:)->()`` does.
public protocol Middleware: Sendable {
    /// Handles one action: passes it on with `next` (maybe changed), or drops it.
    ///
    /// - Returns: The changes the action produced, as `next` returned them;
    ///   `[]` for a dropped action.
    func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange]

    /// Whether `next` should return the changes each action produced; `false` by default.
    ///
    /// Gathering changes keeps every store's old state and boxes it for each
    /// action, so the dispatcher does it only while a middleware that wants
    /// them is in the chain; otherwise `next` returns `[]`.
    var observesChanges: Bool { get }

    /// Called once a batch has committed, with the changes it made; does nothing by default.
    ///
    /// Each of a batch's actions passes through ``dispatch(_:next:)``, where
    /// `next` returns `[]`: a batch's stores change together, when it commits.
    /// A middleware that ``observesChanges`` hears them here, one per store,
    /// in registration order; `batch` is the action named
    /// ``AnyAction/batchName`` whose payload is the batch's actions. It runs
    /// on the batch's thread, after the stores' observers.
    func batchCommitted(_ batch: AnyAction, changes: [AnyStoreChange])
}

extension Middleware {
    /// `false`: a middleware hears of changes only when it says it observes them.
    public var observesChanges: Bool { false }

    /// Does nothing: a middleware that observes changes implements it to hear a batch's changes.
    public func batchCommitted(_ batch: AnyAction, changes: [AnyStoreChange]) {}
}

/// The rest of the middleware chain, then the stores.
///
/// It serves the ``Middleware/dispatch(_:next:)`` call it was passed to, on
/// that call's thread; called later, from another thread, or from a handler or
/// observer of the action it passed on, it throws
/// ``FluxionError/middlewareNextOutsideDispatch(_:)`` at once: the action
/// reaches no other middleware and no store. A kept `next` keeps its
/// dispatcher alive, but not the middleware.
public struct MiddlewareNext {
    /// The dispatcher the action goes through, for reading stores or dispatching more (queued).
    public var dispatcher: Dispatcher { run.dispatcher }
    @usableFromInline let run: MiddlewareRun
    /// The place in the chain of the middleware this calls; past the last, the stores.
    @usableFromInline let position: Int

    /// Passes `action` to the next middleware, or to the stores after the last one.
    ///
    /// - Returns: The changes the action produced, when a middleware of the
    ///   chain ``Middleware/observesChanges``: one per store whose handler ran,
    ///   in registration order; `[]` otherwise, and inside a batch, whose
    ///   changes ``Middleware/batchCommitted(_:changes:)`` hears when it commits.
    /// - Throws: What the rest of the chain or the stores threw, or
    ///   ``FluxionError/middlewareNextOutsideDispatch(_:)`` when called
    ///   outside the middleware's `dispatch(_:next:)` call.
    @inlinable  // NB: a middleware's call of `next` reaches the chain's run with no call between
    public func callAsFunction(_ action: AnyAction) throws -> [AnyStoreChange] {
        try run.pass(action, from: position)
    }
}

/// Identifies a middleware added to a dispatcher, for removing it.
public struct MiddlewareID: Hashable, Sendable {
    let rawValue: Int
}
