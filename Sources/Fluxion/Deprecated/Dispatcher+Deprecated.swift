// Spellings renamed in issue 25, kept for one release; each forwards to its new name.
extension Dispatcher {
    /// Runs a thunk now, on the calling thread.
    ///
    /// Renamed ``perform(_:)``: beside `dispatch(_:payload:)` and `dispatchTask`, it read as an
    /// action or as asynchronous work.
    @available(*, deprecated, renamed: "perform(_:)")
    @discardableResult
    public func dispatch<Value>(_ work: (Dispatcher) throws -> Value) rethrows -> Value {
        try perform(work)
    }

    /// Dispatches a typed action, even while the dispatcher is suspended.
    ///
    /// Renamed ``dispatchBypassingSuspension(_:payload:error:)``: it bypasses a suspension; it
    /// does not give exclusive access.
    @available(*, deprecated, renamed: "dispatchBypassingSuspension(_:payload:error:)")
    public func dispatchExclusively<Payload>(
        _ name: ActionName<Payload>,
        payload: Payload,
        error: (any Error)? = nil
    ) throws {
        try dispatchBypassingSuspension(name, payload: payload, error: error)
    }

    /// Dispatches a typed action without a payload, even while the dispatcher is suspended.
    ///
    /// Renamed ``dispatchBypassingSuspension(_:error:)``.
    @available(*, deprecated, renamed: "dispatchBypassingSuspension(_:error:)")
    public func dispatchExclusively(_ name: ActionName<Void>, error: (any Error)? = nil) throws {
        try dispatchBypassingSuspension(name, error: error)
    }

    /// Dispatches an untyped action, even while the dispatcher is suspended.
    ///
    /// Renamed ``dispatchBypassingSuspension(_:)``.
    @available(*, deprecated, renamed: "dispatchBypassingSuspension(_:)")
    public func dispatchExclusively(_ action: AnyAction) throws {
        try dispatchBypassingSuspension(action)
    }
}
