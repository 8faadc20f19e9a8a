// What a journal needs of the dispatcher: its stores by name, the payload type of an action name,
// and setting stores to recorded states without running a handler.
extension Dispatcher {
    /// The registered store type whose qualified name is `qualifiedName`, or else the only one named `name`
    /// (as `"\(type)"` prints it); created if it was not yet.
    func journaledStore(named name: String, qualifiedName: String?) throws -> (any StateReplacing)? {
        let registration = state.withLock { state -> Registration? in
            let registrations = state.index.registrations.values
            if let qualifiedName,
                let match = registrations.first(where: { qualifiedTypeName($0.type) == qualifiedName })
            {
                return match
            }
            // NB: a file written before qualified names were, or a type renamed since: the short name, if it is unique.
            let named = registrations.filter { typeName($0.type) == name }
            return named.count == 1 ? named[0] : nil
        }
        guard let registration else { return nil }
        return try instance(of: registration) as? any StateReplacing
    }

    /// Attaches a journal's recorder, past the last middleware; ``removeMiddleware(_:)`` takes it off.
    ///
    /// - Throws: ``JournalError/alreadyRecorded(by:)`` while another journal's recorder is attached.
    func attach(_ recorder: JournalRecorder) throws -> MiddlewareID {
        try state.withLock { state in
            try Self.refuseSecondJournal(in: state)
            return state.middleware.attach(recorder)
        }
    }

    /// Refuses a new journal while another records the dispatcher: checked before the new one opens its file.
    ///
    /// - Throws: ``JournalError/alreadyRecorded(by:)`` naming the journal that records it.
    func refuseSecondJournal() throws {
        try state.withLock { try Self.refuseSecondJournal(in: $0) }
    }

    private static func refuseSecondJournal(in state: DispatcherState) throws {
        guard let attached = state.middleware.recorder?.recorder else { return }
        throw JournalError.alreadyRecorded(by: attached.writer?.url.path)
    }

    /// Records, in the journal attached if any, that `action` was refused with `error`; `cause` made it run.
    /// A time-travel move refused is not an action of the session, and is not recorded.
    func recordRefusal(
        of action: @autoclosure () -> AnyAction, error: any Error, reason: JournalRefusal.Reason? = nil,
        cause: StepCause
    ) {
        guard let recorder = state.withLock({ $0.middleware.recorder?.recorder }) else { return }
        let action = action()
        guard action.name != AnyAction.travelName else { return }
        recorder.refused(action, with: error, reason: reason, by: self, cause: cause)
    }

    /// Whether `store`'s type is registered as a computed store.
    func isComputed(_ store: AnyObject) -> Bool {
        state.withLock { $0.index.registrations[ObjectIdentifier(type(of: store))]?.isComputed ?? false }
    }

    /// The registration of the store type whose identifier is `id`, if it is registered.
    func registration(with id: ObjectIdentifier) -> Registration? {
        state.withLock { $0.index.registrations[id] }
    }

    /// How to decode the payload of `name`: as the type its typed handlers take; `.catchAll` when only
    /// catch-all reducers take it; `nil` when no store does.
    func payloadDecoder(of name: String) -> PayloadDecoder? {
        state.withLock { state -> PayloadDecoder? in
            var isCaught = false
            for registration in state.index.registrations.values {
                if let typed = registration.handlers[name]?.typed as? any PayloadDecoding { return .typed(typed) }
                isCaught = isCaught || registration.fallback != nil
            }
            return isCaught ? .catchAll : nil
        }
    }

    /// Sets each store to its state, as one batch its observers hear as ``AnyAction/travelName``.
    func setStates(_ states: [(store: any StateReplacing, state: any Sendable)]) throws {
        try setStates { states }
    }

    /// Sets each store to the state `states` returns, without running a handler, as one batch its observers
    /// hear as ``AnyAction/travelName``; `states` runs inside the batch, holding the dispatch turn.
    ///
    /// A computed store's state in `states` is not set: the batch's derive stage derives it from its sources.
    ///
    /// - Parameter beforeQueuedActions: Runs once observers heard the step, in its turn, before the
    ///   actions queued meanwhile run.
    func setStates(
        computing states: () throws -> [(store: any StateReplacing, state: any Sendable)],
        beforeQueuedActions: () -> Void = {}
    ) throws {
        try batch(deliveredAs: AnyAction.travelName, beforeQueuedActions: beforeQueuedActions) { batch in
            for (store, state) in try states() where !isComputed(store) {
                let mutation = StoreMutation(of: type(of: store)) { store in
                    (store as? any StateReplacing)?.replaceState(with: state)
                        ?? .failed(FluxionError.storeNotRegistered(typeName(type(of: store))))
                }
                try batch.dispatch(AnyAction(name: AnyAction.mutationName, payload: mutation))
            }
        }
    }
}

// What a journal's time travel needs of the dispatcher: holding tasks' dispatches while the stores
// show the past. (Persistence saves no state a travel set: see `PersistenceCenter`.)
extension Dispatcher {
    /// Starts or stops holding tasks' dispatches, as the stores show the past or the present.
    func showPast(_ isPast: Bool) {
        state.withLock { $0.turn.holdsTaskDispatches = isPast }
    }

    /// Lets the dispatches held while the stores showed the past run, in order.
    /// Queues the dispatches held for the present first, before those queued meanwhile: the caller holds the turn.
    func queueHeldDispatchesFirst() {
        state.withLock { $0.turn.releaseHeldFirst() }
    }

    /// Drops the dispatches held while the stores showed step `step`, reporting each one.
    func dropHeldDispatches(at step: Int) {
        var held = state.withLock { $0.turn.takeHeld() }
        while let action = held.popFirst() {
            let name = action.action.name
            let error = JournalError.heldDispatchDropped(action: name, step: step)
            report(TaskError(.dropped, taskID: action.task?.id?.value, action: name, error: error))
        }
    }
}

/// How a replay decodes the payload of an action name.
enum PayloadDecoder {
    /// As the type the name's typed handlers take.
    case typed(any PayloadDecoding)
    /// Only catch-all reducers take it: only a payload-less action can be decoded.
    case catchAll
}

/// A typed handler, which knows its payload type.
protocol PayloadDecoding: Sendable {
    /// Decodes `json` as the payload type; `null` as `()` for an action without payload.
    func decodePayload(_ json: JSONValue) throws -> any Sendable
}

extension TypedHandler: PayloadDecoding {
    func decodePayload(_ json: JSONValue) throws -> any Sendable {
        if json == .null, let none = () as? Payload { return none }
        guard let payload = try json.decode(as: Payload.self) as? Payload else {
            throw DecodingError.typeMismatch(Payload.self, .init(codingPath: [], debugDescription: "not decoded"))
        }
        return payload
    }
}

/// A store whose state a journal can read, decode and set, whatever its type.
protocol StateReplacing: AnyObject, Sendable {
    /// The state, as the calling thread sees it.
    var erasedState: any Sendable { get }
    /// Sets the state to `value`, as an inline mutation does; fails for a value of another type.
    func replaceState(with value: Any) -> HandlerOutcome
    /// Decodes `json` as the state type.
    func decodeState(_ json: JSONValue) throws -> any Sendable
    /// Whether its state can be compared with a recorded one: its type is `Encodable`, so recorded as JSON.
    var isComparable: Bool { get }
    /// Whether two states of its type are equal, by `==`; `nil` when the type is not `Equatable`, or either
    /// value is not of it.
    func statesAreEqual(_ first: Any, _ second: Any) -> Bool?
    /// Whether the committed state equals `noted`, by `==`; `false` when the type is not `Equatable`, or
    /// `noted` is not of it. Read by the dispatch turn holder, who alone commits.
    func committedStateEquals(_ noted: any Sendable) -> Bool
    /// How many times the store committed a change; read by the dispatch turn holder, who alone commits.
    var commitCount: UInt64 { get }
    /// The committed state, without its lock; read by the dispatch turn holder, who alone commits.
    var committedValue: any Sendable { get }
}

extension Store: StateReplacing {
    var erasedState: any Sendable { state }

    var commitCount: UInt64 { commitSerial }

    var committedValue: any Sendable { currentState }

    var isComparable: Bool { State.self is any Encodable.Type }

    func committedStateEquals(_ noted: any Sendable) -> Bool {
        guard let isEqual, let noted = noted as? State else { return false }
        return isEqual(noted, currentState)
    }

    func statesAreEqual(_ first: Any, _ second: Any) -> Bool? {
        guard let isEqual, let first = first as? State, let second = second as? State else { return nil }
        return isEqual(first, second)
    }

    func replaceState(with value: Any) -> HandlerOutcome {
        guard let value = value as? State else {
            return .failed(
                FluxionError.payloadTypeMismatch(
                    action: AnyAction.travelName, expected: "\(State.self)", actual: "\(type(of: value))"))
        }
        return apply { $0 = value }
    }

    func decodeState(_ json: JSONValue) throws -> any Sendable {
        guard let state = try json.decode(as: State.self) as? State else {
            throw DecodingError.typeMismatch(State.self, .init(codingPath: [], debugDescription: "not decoded"))
        }
        return state
    }
}

/// A type's name qualified by its module and enclosing types, the same in every run: what tells two store
/// types of one short name apart in a journal file. A private type's context, which `String(reflecting:)`
/// prints with an address, is written `(private)`.
func qualifiedTypeName(_ type: Any.Type) -> String {
    var name = String(reflecting: type)
    while let start = name.range(of: "(unknown context at "), let end = name[start.upperBound...].firstIndex(of: ")") {
        name.replaceSubrange(start.lowerBound...end, with: "(private)")
    }
    return name
}
