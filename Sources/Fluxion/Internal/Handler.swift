/// One entry of a handler table, with the store's state type and the payload type erased.
///
/// The closures are made where the table is declared, in the app's module, so
/// they are specialised for the store's state and the payload type; the
/// dispatcher only moves the payload to them.
@usableFromInline
final class Handler: Sendable {
    /// The payload type the handler takes; `nil` for a catch-all reducer, which takes any.
    let payload: Any.Type?
    /// `payload`'s identity, compared on every typed dispatch.
    let payloadType: ObjectIdentifier?
    /// A `TypedHandler<Payload>` for the payload type `payload`; `nil` for a catch-all.
    let typed: (AnyObject & Sendable)?
    /// The same handler, to lend without a reference count while this handler is held.
    /// NB: `Unmanaged` is not `Sendable`, but this is only a copy of `typed`'s reference, which is.
    nonisolated(unsafe) private let unretainedTyped: Unmanaged<AnyObject>?
    /// Whether the handler can take a payload whose type is known only at run time.
    let accepts: @Sendable (any Sendable) -> Bool
    /// Runs the handler for an action whose payload type is known only at run time.
    let untyped: @Sendable (AnyObject, AnyAction) -> HandlerOutcome
    /// Makes the same handler for one store, `nil` when it is not the store's: a method handler binds its
    /// method to the store once, where Swift would allocate the bound method at every call.
    let binding: (@Sendable (AnyObject) -> Handler?)?

    @usableFromInline
    init(
        payload: Any.Type?,
        typed: (AnyObject & Sendable)?,
        accepts: @escaping @Sendable (any Sendable) -> Bool,
        untyped: @escaping @Sendable (AnyObject, AnyAction) -> HandlerOutcome,
        binding: (@Sendable (AnyObject) -> Handler?)? = nil
    ) {
        self.payload = payload
        self.payloadType = payload.map(ObjectIdentifier.init)
        self.typed = typed
        unretainedTyped = typed.map { Unmanaged.passUnretained($0) }
        self.accepts = accepts
        self.untyped = untyped
        self.binding = binding
    }

    /// The handler to run on `store`: bound to it, for a method handler of its type; this one otherwise.
    func bound(to store: AnyObject) -> Handler {
        binding?(store) ?? self
    }

    /// Runs `handler` on `store` for a typed action: directly when it takes `Payload`, through its untyped body
    /// otherwise (a catch-all reducer).
    ///
    /// NB: static, the handler lent: its caller's route holds it, and a method's `self` would be counted.
    @inline(__always)
    static func run<Payload: Sendable>(
        _ handler: Unmanaged<Handler>, on store: AnyObject, name: String, payload: Payload, error: (any Error)?
    ) -> HandlerOutcome {
        // NB: only its constants are read: they need no count.
        unowned(unsafe) let handler = handler.takeUnretainedValue()
        if handler.payloadType == ObjectIdentifier(Payload.self), let typed = handler.unretainedTyped {
            // NB: `typed` is a `TypedHandler<Payload>` exactly when the payload types match; the handler keeps
            // it alive, so it is lent without a reference count.
            return typed._withUnsafeGuaranteedRef {
                unsafeDowncast($0, to: TypedHandler<Payload>.self).run(store, name, payload, error)
            }
        }
        return Unmanaged.passUnretained(handler)._withUnsafeGuaranteedRef {
            $0.untyped(store, AnyAction(name: name, payload: payload, error: error))
        }
    }

    /// Runs `handler`, a computed store's derivation, on `store`: it reads the store's sources, not the action
    /// named `name`.
    @inline(__always)
    static func derive(_ handler: Unmanaged<Handler>, on store: AnyObject, name: String) -> HandlerOutcome {
        handler._withUnsafeGuaranteedRef { $0.untyped(store, AnyAction(name: name)) }
    }
}

/// A handler's body for one payload type: takes the store, the action's name, payload and error.
@usableFromInline
final class TypedHandler<Payload: Sendable>: Sendable {
    let run: @Sendable (AnyObject, String, Payload, (any Error)?) -> HandlerOutcome

    @usableFromInline
    init(_ run: @escaping @Sendable (AnyObject, String, Payload, (any Error)?) -> HandlerOutcome) {
        self.run = run
    }
}

/// What running one store's handler did.
@usableFromInline
enum HandlerOutcome {
    /// How a performance trace names it.
    var traceName: String {
        switch self {
        case .failed: "threw"
        case .committed: "committed"
        case .staged: "staged"
        }
    }

    /// The handler threw; the store's state is as it was.
    case failed(any Error)
    /// The new state is committed (a one-store action); `delivers` when it is a change someone hears.
    case committed(delivers: Bool)
    /// The new state waits for the transaction's commit.
    case staged
}

/// What the dispatcher does to a store of one state type, specialised where the store type is declared.
///
/// A transaction stages the changes of several stores, then commits them all
/// or rolls them all back, then delivers them, through these closures.
@usableFromInline
final class StoreOperations: Sendable {
    /// Makes the store's next handler runs stage their changes instead of committing them.
    let stage: @Sendable (AnyObject) -> Void
    /// Commits the staged state; returns whether it is a change someone hears.
    let commit: @Sendable (AnyObject) -> Bool
    /// Drops the staged state.
    let rollback: @Sendable (AnyObject) -> Void
    /// Tells the store's observers about its committed change.
    let deliver: @Sendable (AnyObject, AnyAction) -> Void
    /// Tells them, recording each call's span in a performance trace.
    let deliverTraced: @Sendable (AnyObject, AnyAction, TraceRecorder) -> Void
    /// Whether the running step staged a change of the store's state: what a computed store asks of its sources.
    let hasStagedChange: @Sendable (AnyObject) -> Bool
    /// Initialises the memory at the pointer, bound to the store's `State`, with the store's ``Store/state``:
    /// how a computed store reads its sources, specialised here, where their code is unspecialised.
    let readState: @Sendable (AnyObject, UnsafeMutableRawPointer) -> Void

    @usableFromInline
    init(
        stage: @escaping @Sendable (AnyObject) -> Void,
        commit: @escaping @Sendable (AnyObject) -> Bool,
        rollback: @escaping @Sendable (AnyObject) -> Void,
        deliver: @escaping @Sendable (AnyObject, AnyAction) -> Void,
        deliverTraced: @escaping @Sendable (AnyObject, AnyAction, TraceRecorder) -> Void,
        hasStagedChange: @escaping @Sendable (AnyObject) -> Bool,
        readState: @escaping @Sendable (AnyObject, UnsafeMutableRawPointer) -> Void
    ) {
        self.stage = stage
        self.commit = commit
        self.rollback = rollback
        self.deliver = deliver
        self.deliverTraced = deliverTraced
        self.hasStagedChange = hasStagedChange
        self.readState = readState
    }

    /// The operations of stores whose state is `State`.
    @inlinable
    static func of<State: Sendable>(_: State.Type) -> StoreOperations {
        StoreOperations(
            stage: { unsafeDowncast($0, to: Store<State>.self).isStaging = true },
            commit: { unsafeDowncast($0, to: Store<State>.self).commitStaged() },
            rollback: { unsafeDowncast($0, to: Store<State>.self).rollBackStaged() },
            deliver: { unsafeDowncast($0, to: Store<State>.self).deliverPendingChange(for: $1) },
            deliverTraced: { unsafeDowncast($0, to: Store<State>.self).deliverPendingChange(for: $1, tracing: $2) },
            hasStagedChange: { unsafeDowncast($0, to: Store<State>.self).hasStagedChange },
            readState: {
                $1.assumingMemoryBound(to: State.self).initialize(to: unsafeDowncast($0, to: Store<State>.self).state)
            }
        )
    }
}
