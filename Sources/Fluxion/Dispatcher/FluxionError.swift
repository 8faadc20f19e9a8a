/// The errors Fluxion itself throws; each message names what was wrong.
///
/// Errors thrown by your handlers reach the caller of
/// ``Dispatcher/dispatch(_:payload:error:)`` unchanged; these are the ones
/// Fluxion adds. Store types are named by their type name.
public enum FluxionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A payload's type does not match the type the handler declared for this action name.
    ///
    /// Thrown before any store is touched.
    case payloadTypeMismatch(action: String, expected: String, actual: String)

    /// A handler table entry is a method of another store type than the store it was declared on.
    case storeTypeMismatch(action: String, expected: String, actual: String)

    /// The store type was never registered with this dispatcher (or was unregistered).
    ///
    /// Raised by a ``Store/waitFor(_:)`` inside a handler, it also names the
    /// store that was waiting and the action it was handling.
    case storeNotRegistered(String, waitingStore: String? = nil, action: String? = nil)

    /// Two store types declare one action name with different payload types;
    /// the second one's registration is refused.
    case conflictingPayloadTypes(
        action: String, store: String, payload: String, otherStore: String, otherPayload: String)

    /// The store type is already registered with this dispatcher.
    case storeAlreadyRegistered(String)

    /// A derived store names a source store type that is not registered; register the sources first.
    ///
    /// Thrown by ``Dispatcher/register(_:derivedFrom:factory:)`` for a source not
    /// registered yet, and when the derived store is created after its source was unregistered.
    case sourceNotRegistered(String, derivedStore: String)

    /// A derived store would start from a store that starts from it; the path lists the stores in
    /// derivation order and ends where it started, for example `["AStore", "BStore", "AStore"]`.
    case derivationCycle([String])

    /// A computed store declares handlers: its state follows its sources', so it handles no action.
    ///
    /// Thrown by ``Dispatcher/register(_:computedFrom:compute:)``.
    case computedStoreHandlesActions(String)

    /// A batch's inline mutation named a computed store: its state is derived from its sources, never set.
    ///
    /// Thrown by ``DispatchBatch/mutate(_:_:)`` before anything is staged; the batch rolls back.
    case computedStoreMutated(String)

    /// `waitFor` would wait on a store that is already waiting; the path lists
    /// the stores in waiting order and ends where it started, for example
    /// `["AStore", "BStore", "AStore"]`.
    case waitForCycle([String])

    /// `waitFor` was called outside a handler of this dispatcher's current dispatch.
    case waitForOutsideDispatch(String)

    /// A store's initializer asked for the same store, so it can never be created.
    case recursiveStoreCreation(String)

    /// An ``Effects`` was used after the handler call it was given to returned (or on another thread);
    /// the effect, named by its id if it has one, did not start.
    case effectOutsideHandler(String?)

    /// A store type was passed as its superclass's metatype, for example a
    /// `SubStore.self` held in a `BaseStore.Type`; the dispatcher creates and
    /// routes to the static type, so it refuses to register the wrong one.
    case storeTypeUpcast(String, as: String)

    /// A store factory returned a store that a dispatcher owns already; each
    /// registration needs a store of its own.
    case storeAlreadyOwned(String)

    /// A middleware's ``MiddlewareNext`` was called outside its
    /// ``Middleware/dispatch(_:next:)`` call: after it returned, from another
    /// thread, or from a handler or observer of the action it passed on; the
    /// action is named. It reached no other middleware and no store.
    case middlewareNextOutsideDispatch(String)

    /// A batch was started, or a batch's action dispatched, while an action
    /// runs: from a handler, an observer, a middleware or a hook.
    case batchInsideAction

    /// A ``DispatchBatch`` was used after its batch ended, or on another thread; the action is named.
    case batchEnded(String)

    /// An action or a batch (``AnyAction/batchName``) was dispatched once ``Dispatcher/shutdown()`` had begun;
    /// the action is named. A dispatcher that shuts down runs nothing new: nothing reached its stores.
    case dispatcherShutDown(action: String)

    /// A human-readable message naming what was wrong.
    public var description: String {
        switch self {
        case .payloadTypeMismatch(let action, let expected, let actual):
            "Action '\(action)' expects a payload of type \(expected) but was dispatched with \(actual)."
        case .storeTypeMismatch(let action, let expected, let actual):
            "The handler for '\(action)' is a method of \(expected) but is declared on \(actual)."
        case .storeNotRegistered(let store, let waitingStore?, let action?):
            "Store \(store) is not registered with this dispatcher; \(waitingStore) waited for it while handling '\(action)'."
        case .storeNotRegistered(let store, _, _):
            "Store \(store) is not registered with this dispatcher."
        case .conflictingPayloadTypes(let action, let store, let payload, let otherStore, let otherPayload):
            "Store \(store) declares action '\(action)' with payload type \(payload), but \(otherStore) declares it with \(otherPayload); one name needs one payload type."
        case .storeAlreadyRegistered(let store):
            "Store \(store) is already registered with this dispatcher."
        case .sourceNotRegistered(let source, let derived):
            "Store \(derived) starts from \(source), which is not registered with this dispatcher; register \(source) first."
        case .derivationCycle(let path):
            "Derived stores start from each other: \(path.joined(separator: " → ")); one of them must start from its own state."
        case .computedStoreHandlesActions(let store):
            "Store \(store) is computed from other stores, so it handles no action, but its handler table has entries; remove them (its state follows its sources), or register it with a factory and follow the sources with waitFor."
        case .computedStoreMutated(let store):
            "Store \(store) is computed from other stores, so its state cannot be set by a mutation; mutate its sources instead."
        case .waitForCycle(let path):
            "waitFor cycle: \(path.joined(separator: " → "))."
        case .waitForOutsideDispatch(let store):
            "waitFor(\(store)) was called outside a handler of the current dispatch."
        case .recursiveStoreCreation(let store):
            "Store \(store) was asked for while it was being created."
        case .storeTypeUpcast(let store, let staticType):
            "Store type \(store) was passed as \(staticType).Type; pass \(store).self, whose type is known statically."
        case .storeAlreadyOwned(let store):
            "The factory of \(store) returned a store that a dispatcher owns already; it must create a new one."
        case .middlewareNextOutsideDispatch(let action):
            "A middleware's next was called with '\(action)' outside its dispatch(_:next:): after it returned, from another thread, or from a handler or observer of the action; call next only from dispatch(_:next:), on its thread."
        case .batchInsideAction:
            "A batch cannot start while an action runs (in a handler, an observer, a middleware or a hook); dispatch its actions, which are queued, instead."
        case .batchEnded(let action):
            "Action '\(action)' was dispatched through a batch that has ended, or from another thread."
        case .dispatcherShutDown(let action):
            "'\(action)' was dispatched after shutdown() began; a dispatcher that shuts down runs no new action or batch (make a new dispatcher to go on)."
        case .effectOutsideHandler(let id):
            "An effect\(id.map { " (id \($0))" } ?? "") was asked for outside the handler call its Effects was given to; call effects.run only while the handler runs, or use Dispatcher.dispatchTask."
        }
    }
}

@usableFromInline
func typeName(_ type: Any.Type) -> String {
    String(describing: type)
}

/// The names of two types, qualified by their modules when their short names are the same.
func typeNames(_ first: Any.Type, _ second: Any.Type) -> (String, String) {
    let names = (typeName(first), typeName(second))
    guard names.0 == names.1, first != second else { return names }
    return (String(reflecting: first), String(reflecting: second))
}
