/// A store with a state of type `State`: what names the sources of a computed store.
///
/// Every ``Store`` conforms. ``Dispatcher/register(_:computedFrom:compute:)``
/// takes its sources as store types of this protocol, so that the computation
/// receives each source's state with its own type.
public protocol StoreProtocol: AnyObject, Sendable {
    /// The type of the store's state.
    associatedtype State: Sendable

    /// The store's committed state; to the handlers of the running action, the state it is making.
    var state: State { get }
}

extension Store: StoreProtocol {}
