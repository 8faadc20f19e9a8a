/// An inline change of one store's state, made in a batch with ``DispatchBatch/mutate(_:_:)``.
///
/// It is the payload of the built-in action named ``AnyAction/mutationName``,
/// as the middleware and the observers see it.
public struct StoreMutation: Sendable, CustomStringConvertible {
    /// The type of the store it changes.
    public let storeType: any AnyObject.Type
    let storeID: ObjectIdentifier
    let apply: @Sendable (AnyObject) -> HandlerOutcome

    @usableFromInline
    init(of type: any AnyObject.Type, apply: @escaping @Sendable (AnyObject) -> HandlerOutcome) {
        storeType = type
        storeID = ObjectIdentifier(type)
        self.apply = apply
    }

    /// The store type's name.
    public var description: String { typeName(storeType) }

    var storeName: String { typeName(storeType) }
}
