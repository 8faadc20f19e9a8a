/// A registered store type: its name, its place in registration order, its handlers and how to create it.
///
/// Immutable: whether the store exists, and who is creating it, is the
/// ``RouteIndex``'s to know.
final class Registration: Sendable {
    let id: ObjectIdentifier
    let type: any AnyObject.Type
    /// The place in registration order: observers hear stores in this order.
    let order: Int
    let handlers: [String: Handler]
    let fallback: Handler?
    /// What the dispatcher needs to commit, roll back and deliver this store's changes.
    let operations: StoreOperations
    /// Creates the store; given the dispatcher, so that a derived store's factory can read its sources.
    let make: @Sendable (Dispatcher) throws -> any StoreRuntime
    /// The store types a derived store starts from (see `register(_:derivedFrom:persistence:factory:)`).
    let sources: [any AnyObject.Type]
    /// Runs on the new store once it is attached, before it is published; persistence restores here.
    let prepare: (@Sendable (any StoreRuntime) -> Void)?
    /// For a computed store, what derives its state anew from its `sources`, in the transaction's derive
    /// stage (see `Dispatcher+ComputedStores.swift`); `nil` for any other store.
    let computation: Handler?

    /// Whether the store is computed: it handles no action, and nothing but the derive stage sets its state.
    var isComputed: Bool { computation != nil }

    /// - Parameter table: `S.handlers`, read by the caller (it is user code).
    init<State, S: Store<State>>(
        _ type: S.Type,
        table: HandlerTable<State>,
        order: Int,
        sources: [any AnyObject.Type] = [],
        make: @escaping @Sendable (Dispatcher) throws -> S,
        prepare: (@Sendable (S) -> Void)? = nil,
        computation: Handler? = nil
    ) {
        id = ObjectIdentifier(type)
        self.type = type
        self.order = order
        handlers = table.handlers
        fallback = table.fallback
        operations = table.operations
        self.make = make
        self.sources = sources
        self.computation = computation
        // NB: the factory returns `S`, so the store handed to `prepare` is an `S`.
        if let prepare {
            self.prepare = { store in prepare(unsafeDowncast(store, to: S.self)) }
        } else {
            self.prepare = nil
        }
    }

    /// The type's name, qualified by its module when another type of that name is involved.
    var name: String { typeName(type) }

    /// The route that handles `actionName` for this store, if any.
    func route(for actionName: String) -> Route? {
        (handlers[actionName] ?? fallback).map { Route(registration: self, handler: $0) }
    }
}
