/// What a running batch has done so far: its actions, the stores they touched, and its first error.
///
/// Only the thread holding the dispatch turn touches it.
final class BatchProgress {
    /// The batch's actions, in order.
    @exclusivity(unchecked) var actions: [AnyAction] = []
    /// The stores whose handlers ran, in the order they first did; each keeps its state from before the batch.
    @exclusivity(unchecked) private(set) var stores: [any StoreRuntime] = []
    @exclusivity(unchecked) private var enrolled: Set<ObjectIdentifier> = []
    /// The first error of the batch: it rolls every store back.
    @exclusivity(unchecked) private(set) var failure: (any Error)?

    /// Records that a handler of `store` is about to run, keeping the store's state from before the batch.
    func enroll(_ store: any StoreRuntime) {
        guard enrolled.insert(ObjectIdentifier(store)).inserted else { return }
        store.beginBatch()
        stores.append(store)
    }

    /// Records an error; the first one is the batch's.
    func fail(_ error: any Error) {
        if failure == nil { failure = error }
    }
}
