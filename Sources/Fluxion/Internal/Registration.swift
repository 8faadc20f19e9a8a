/// A registered store type: how to create it, its handlers, and its instance once created.
final class Registration: @unchecked Sendable {  // `instance`, `creator`, `order` guarded by the dispatcher's `lock`
    let id: ObjectIdentifier
    let name: String
    let handlers: [String: Handler]
    let fallback: Handler?
    let make: @Sendable () -> any StoreRuntime
    /// Runs on the new store once it is attached, before it is published; persistence restores here.
    let prepare: (@Sendable (any StoreRuntime) -> Void)?

    /// The store, once created.
    ///
    /// NB: written once, under the dispatcher's lock; a thread that has seen it set
    /// under the lock may read it without the lock afterwards, since it never changes again.
    @exclusivity(unchecked) var instance: (any StoreRuntime)?
    /// The thread creating the store right now, if any.
    @exclusivity(unchecked) var creator: ThreadID?
    /// The registration's place in registration order; set once, when registered.
    @exclusivity(unchecked) var order = 0

    init<State, S: Store<State>>(
        _ type: S.Type,
        factory: @escaping @Sendable () -> S,
        prepare: (@Sendable (S) -> Void)? = nil
    ) {
        let table = S.handlers
        id = ObjectIdentifier(type)
        name = typeName(type)
        handlers = table.handlers
        fallback = table.fallback
        make = factory
        // NB: the factory returns `S`, so the store handed to `prepare` is an `S`.
        if let prepare {
            self.prepare = { store in prepare(unsafeDowncast(store, to: S.self)) }
        } else {
            self.prepare = nil
        }
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
