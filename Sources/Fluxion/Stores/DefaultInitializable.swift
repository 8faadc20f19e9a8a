/// A store type the dispatcher can create by itself, with `init()`.
///
/// Conform a store to register it without a factory:
///
/// ```swift
/// final class CounterStore: Store<Counter>, DefaultInitializable, @unchecked Sendable {
///     init() { super.init(initialState: Counter()) }
/// }
///
/// try dispatcher.register(CounterStore.self)
/// ```
///
/// Stores that need dependencies register with a factory instead:
/// ``Dispatcher/register(_:factory:)``.
public protocol DefaultInitializable: AnyObject {
    /// Creates the store with its initial state.
    init()
}
