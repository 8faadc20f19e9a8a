/// A weak reference to a store, made once per store for all its ``AnyStoreChange``s.
final class StoreReference: @unchecked Sendable {  // NB: `store` is written once, in `init`: loads are thread-safe
    private(set) weak var store: (any AnyObject & Sendable)?
    /// The store's dynamic type.
    let type: any AnyObject.Type

    init(_ store: any AnyObject & Sendable) {
        self.store = store
        self.type = Swift.type(of: store)
    }
}
