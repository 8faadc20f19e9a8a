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
    case storeNotRegistered(String)

    /// The store type is already registered with this dispatcher.
    case storeAlreadyRegistered(String)

    /// `waitFor` would wait on a store that is already waiting; the path lists
    /// the stores in waiting order and ends where it started, for example
    /// `["AStore", "BStore", "AStore"]`.
    case waitForCycle([String])

    /// `waitFor` was called outside a handler of this dispatcher's current dispatch.
    case waitForOutsideDispatch(String)

    /// A store's initializer asked for the same store, so it can never be created.
    case recursiveStoreCreation(String)

    /// A store type was passed as its superclass's metatype, for example a
    /// `SubStore.self` held in a `BaseStore.Type`; the dispatcher creates and
    /// routes to the static type, so it refuses to register the wrong one.
    case storeTypeUpcast(String, as: String)

    /// A store factory returned a store that a dispatcher owns already; each
    /// registration needs a store of its own.
    case storeAlreadyOwned(String)

    /// A batch was started, or a batch's action dispatched, while an action
    /// runs: from a handler, an observer, a middleware or a hook.
    case batchInsideAction

    /// A ``DispatchBatch`` was used after its batch ended, or on another thread; the action is named.
    case batchEnded(String)

    /// A human-readable message naming what was wrong.
    public var description: String {
        switch self {
        case .payloadTypeMismatch(let action, let expected, let actual):
            "Action '\(action)' expects a payload of type \(expected) but was dispatched with \(actual)."
        case .storeTypeMismatch(let action, let expected, let actual):
            "The handler for '\(action)' is a method of \(expected) but is declared on \(actual)."
        case .storeNotRegistered(let store):
            "Store \(store) is not registered with this dispatcher."
        case .storeAlreadyRegistered(let store):
            "Store \(store) is already registered with this dispatcher."
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
        case .batchInsideAction:
            "A batch cannot start while an action runs (in a handler, an observer, a middleware or a hook); dispatch its actions, which are queued, instead."
        case .batchEnded(let action):
            "Action '\(action)' was dispatched through a batch that has ended, or from another thread."
        }
    }
}

@usableFromInline
func typeName(_ type: Any.Type) -> String {
    String(describing: type)
}
