/// Code that sees every action before the stores do, and the changes it produced after.
///
/// A middleware passes an action on by calling `next`, and may change it
/// first, or drop it by not calling `next`. The code after `next` runs once
/// the stores have handled the action and their observers have heard of it,
/// with the changes it produced:
///
/// ```swift
/// struct Auditor: Middleware {
///     func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
///         guard action.name != "debugOnly" else { return [] }  // dropped
///         let changes = try next(action)
///         print(action.name, "changed", changes.map(\.storeType))
///         return changes
///     }
/// }
/// try dispatcher.add(Auditor())
/// ```
///
/// Middleware runs on the dispatching thread, holding the dispatch turn, in
/// the order it was added; ``MiddlewareNext/dispatcher`` reads stores. An
/// action it dispatches is queued and runs after the current one. Actions
/// reach the middleware with their payload type erased; past the middleware
/// they match handlers as ``Dispatcher/dispatch(_:)`` does.
public protocol Middleware: Sendable {
    /// Handles one action: passes it on with `next` (maybe changed), or drops it.
    ///
    /// - Returns: The changes the action produced, as `next` returned them;
    ///   `[]` for a dropped action.
    func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange]
}

/// The rest of the middleware chain, then the stores.
public struct MiddlewareNext {
    /// The dispatcher the action goes through, for reading stores or dispatching more (queued).
    public let dispatcher: Dispatcher
    let chain: ArraySlice<(id: MiddlewareID, value: any Middleware)>

    /// Passes `action` to the next middleware, or to the stores after the last one.
    ///
    /// - Returns: The changes the action produced: one per store whose handler
    ///   ran, in registration order; `[]` inside a batch, whose observers hear
    ///   of it when it ends.
    public func callAsFunction(_ action: AnyAction) throws -> [AnyStoreChange] {
        try dispatcher.run(action, through: chain)
    }
}

/// Identifies a middleware added to a dispatcher, for removing it.
public struct MiddlewareID: Hashable, Sendable {
    let rawValue: Int
}

extension Dispatcher {
    /// Adds a middleware at the end of the chain; it sees every action dispatched from now on.
    ///
    /// Safe while other threads dispatch: an action already running keeps the
    /// chain it started with.
    ///
    /// - Returns: An identifier for ``remove(_:)``.
    @discardableResult
    public func add(_ middleware: any Middleware) -> MiddlewareID {
        appendMiddleware(middleware)
    }

    /// Removes a middleware from the chain.
    ///
    /// - Returns: Whether it was in the chain.
    @discardableResult
    public func remove(_ middleware: MiddlewareID) -> Bool {
        removeMiddleware(middleware)
    }
}
