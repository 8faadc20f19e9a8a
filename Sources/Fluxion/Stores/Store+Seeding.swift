extension Store {
    /// Replaces the initial state with a restored or seeded one; the dispatcher calls it before anyone else sees the store.
    ///
    /// No observer is told: for everyone but the store's creator, the store
    /// starts with this state.
    final func replaceStateBeforePublication(with state: State) {
        var replaced = state
        lock.lock()
        swap(&currentState, &replaced)
        lock.unlock()
        withExtendedLifetime(replaced) {}  // NB: the initial state is released outside the lock
    }
}
