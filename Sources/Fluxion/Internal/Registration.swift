/// A registered store type: how to create it, its handlers, and its instance once created.
final class Registration: @unchecked Sendable {  // `instance`, `creator`, `order` guarded by the dispatcher's `lock`
    let id: ObjectIdentifier
    let name: String
    let handlers: [String: Handler]
    let fallback: Handler?
    let make: @Sendable () -> any StoreRuntime

    /// The store, once created.
    ///
    /// NB: written once, under the dispatcher's lock; a thread that has seen it set
    /// under the lock may read it without the lock afterwards, since it never changes again.
    @exclusivity(unchecked) var instance: (any StoreRuntime)?
    /// The thread creating the store right now, if any.
    @exclusivity(unchecked) var creator: ThreadID?
    /// The registration's place in registration order; set once, when registered.
    @exclusivity(unchecked) var order = 0

    init<State, S: Store<State>>(_ type: S.Type, factory: @escaping @Sendable () -> S) {
        let table = S.handlers
        id = ObjectIdentifier(type)
        name = typeName(type)
        handlers = table.handlers
        fallback = table.fallback
        make = factory
    }

    /// The route that handles `actionName` for this store, if any.
    func route(for actionName: String) -> Route? {
        (handlers[actionName] ?? fallback).map { Route(registration: self, handler: $0) }
    }
}

/// One store's handler for one action name, as the name index holds it.
struct Route: Sendable {
    let registration: Registration
    let handler: Handler
}
