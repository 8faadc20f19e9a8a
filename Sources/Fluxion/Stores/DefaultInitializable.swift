/// A type with an initializer that takes no arguments: a store the dispatcher
/// can create by itself, or a state that stores start from.
///
/// Conform a store type to register it without a factory. When its state
/// conforms too, the store needs no initializer of its own: it inherits
/// `init()`, which starts from `State()`.
///
/// ```swift
/// struct Counter: DefaultInitializable, Sendable {
///     var count = 0
/// }
///
/// final class CounterStore: Store<Counter>, DefaultInitializable, @unchecked Sendable {
///     override class var handlers: Handlers {
///         HandlerTable().on(.increment) { state, action in state.count += action.payload }
///     }
/// }
///
/// try dispatcher.register(CounterStore.self)
/// ```
///
/// A store whose state has no `init()`, or that starts from another value,
/// declares its own:
///
/// ```swift
/// final class CounterStore: Store<Counter>, DefaultInitializable, @unchecked Sendable {
///     init() { super.init(initialState: Counter(count: 10)) }
/// }
/// ```
///
/// Stores that need dependencies register with a factory instead:
/// ``Dispatcher/register(_:factory:)``.
public protocol DefaultInitializable {
    /// Creates a value with no arguments: a store with its initial state, or an initial state.
    init()
}

extension Store where State: DefaultInitializable {
    /// Creates a store whose state starts as `State()`.
    ///
    /// A subclass that declares no designated initializer inherits this one,
    /// so a store over a ``DefaultInitializable`` state needs no `init()` to
    /// conform to ``DefaultInitializable`` itself.
    public convenience init() {
        self.init(initialState: State())
    }
}
