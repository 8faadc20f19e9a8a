extension Effects {
    /// What a closure handler names to be given ``Effects`` as its last parameter: `with: .effects`.
    ///
    /// ```swift
    /// .on(.search, with: .effects) { state, action, effects in … }
    /// .on(.search, in: SearchStore.self, with: .effects) { store, state, action, effects in … }
    /// ```
    ///
    /// A closure's parameters are not told apart by their number: each form of
    /// ``HandlerTable`` entry has a spelling of its own, so that a table of any
    /// size type-checks quickly.
    public enum Parameter: Sendable {
        /// The closure's last parameter is the ``Effects`` of its handler call.
        case effects
    }
}
