/// What a committed transaction leaves its observers: the changes someone hears, told once, after the
/// actions the transaction dispatched are queued.
///
/// Only ``Transaction/end()`` makes one, taking the action's lent route list
/// out of the transaction, and ``Transaction/deliver(_:as:tracing:)``
/// consumes it. It cannot be copied, so the lent list reaches the observers
/// at most once, and is gone from the transaction before anything can re-enter it.
struct PendingDelivery: ~Copyable {
    /// The routes of the action, when someone hears one of its stores' changes.
    /// NB: lent without a reference count: the dispatch that runs the action holds the list until it
    /// returns, past this delivery.
    let unretainedList: Unmanaged<RouteList>?
    /// Whether a batch committed staged changes.
    let hasStaged: Bool

    /// Whether no observer is to be told.
    var isEmpty: Bool { unretainedList == nil && !hasStaged }
}
