// Computed stores: stores whose state is a function of other stores' states, kept in step with them
// inside each transaction. The dispatcher gives a computed store a handler for every action its sources
// handle; it runs after theirs (or makes them run first), and computes the state anew when a source's
// state changed. A batch's inline mutation of a source computes its dependents too.
extension Dispatcher {
    /// Registers a store type whose state is computed from other stores' states, and follows them.
    ///
    /// ```swift
    /// try dispatcher.register(UnreadCountStore.self, computedFrom: FeedStore.self, ReadStateStore.self) {
    ///     feed, read in feed.articles.count { !read.ids.contains($0.id) }
    /// }
    /// ```
    ///
    /// The store's state is `compute` of its sources' states, always. It is
    /// computed when the store is first needed (from the sources' committed
    /// states), and again in every step that changes one of its sources — an
    /// action, a batch and its inline mutations, a time-travel move, a
    /// replayed step — once per step, after its handlers and mutations and
    /// before it commits, so that no reader ever sees a source and its
    /// computed store disagree: between steps, readers see both committed;
    /// inside a step, its own thread (a handler, or ``read(_:)`` inside one)
    /// sees the computed store computed from the sources as the step has
    /// staged them so far. A step that changes no source (an `Equatable` state
    /// left equal, even by a batch that brings it back, is no change)
    /// computes nothing; when the computed state is `Equatable`, a result
    /// equal to the state before is no change either. A new action handled by
    /// a source is followed with no change here: nothing can go stale.
    ///
    /// A computed store handles no action itself, and nothing else sets its
    /// state: a batch's ``DispatchBatch/mutate(_:_:)`` of it throws
    /// ``FluxionError/computedStoreMutated(_:)``; time travel and replay set
    /// its sources and compute it (its journaled value is checked, not set).
    /// It is otherwise a store like any other: observable, tracked by
    /// Observation, journaled, and it may be the source of another computed
    /// store (computed in dependency order). Unregistering a source
    /// unregisters it too. A `compute` that throws rolls the step back, as a
    /// handler that throws does. Take any number of sources, registered already.
    ///
    /// - Parameters:
    ///   - type: The computed store type; created with `init()`, whose state `compute` then replaces.
    ///   - sources: The store types it is computed from, registered already.
    ///   - compute: The state, from the sources' states, in the order of `sources`. Keep it fast and pure:
    ///     it runs on the dispatching thread, inside every action that changes a source.
    /// - Throws: ``FluxionError/computedStoreHandlesActions(_:)`` when the type's handler table has
    ///   entries; ``FluxionError/sourceNotRegistered(_:derivedStore:)`` for a source not registered;
    ///   ``FluxionError/derivationCycle(_:)`` for a store computed from itself; and the errors of
    ///   ``register(_:factory:)``.
    // NB: inlinable, so that the closures that read the sources and apply the state are specialised where
    // the store is declared: unspecialised, each computation looked up generic metadata (W16: 18,700
    // instructions a dispatch, 3.2 × the `waitFor` store it replaces).
    @inlinable
    public func register<State, S: Store<State> & DefaultInitializable, each Source: StoreProtocol>(
        _ type: S.Type,
        computedFrom sources: repeat (each Source).Type,
        compute: @escaping @Sendable (repeat (each Source).State) throws -> State
    ) throws {
        let computation = Self.computation(of: S.self, from: repeat each sources, compute: compute)
        try registerComputed(S.self, tables: (S.handlers, HandlerTable()), computation: computation, prepare: nil)
    }

    /// Registers a computed store type whose state is also saved to an archive, for readers outside the app.
    ///
    /// ```swift
    /// try dispatcher.register(
    ///     UnreadCountStore.self, computedFrom: FeedStore.self, ReadStateStore.self,
    ///     persistence: Persistence(storage: sharedStorage, key: "unreadCount")
    /// ) { feed, read in feed.articles.count { !read.ids.contains($0.id) } }
    /// ```
    ///
    /// The store is computed as ``register(_:computedFrom:compute:)`` says, and saved as any persisted
    /// store is (see ``register(_:persistence:)``): once its state has been unchanged for the
    /// configuration's ``Persistence/debounce``, and by ``flush()``. Its state when it is created is
    /// saved too. The archive is written, never restored: the state is computed from the sources — from
    /// their restored archives when they are persisted — so an archive left by an earlier version of
    /// `compute` cannot bring a stale value back. Save it for a reader that has no dispatcher (a widget, a
    /// notification badge in another process).
    ///
    /// - Throws: The errors of ``register(_:computedFrom:compute:)`` and ``register(_:persistence:)``.
    @inlinable
    public func register<State: Codable, S: Store<State> & DefaultInitializable, each Source: StoreProtocol>(
        _ type: S.Type,
        computedFrom sources: repeat (each Source).Type,
        persistence: Persistence<State>,
        compute: @escaping @Sendable (repeat (each Source).State) throws -> State
    ) throws {
        let computation = Self.computation(of: S.self, from: repeat each sources, compute: compute)
        try register(type, persistence: persistence, restoring: false) { prepare in
            try registerComputed(
                S.self, tables: (S.handlers, HandlerTable()), computation: computation, prepare: prepare)
        }
    }

    /// The computed store `S`'s sources, and the closures that make it and compute it anew from their stores.
    @inlinable
    static func computation<State, S: Store<State> & DefaultInitializable, each Source: StoreProtocol>(
        of _: S.Type,
        from sources: repeat (each Source).Type,
        compute: @escaping @Sendable (repeat (each Source).State) throws -> State
    ) -> Computation<State, S> {
        var sourceTypes: [any AnyObject.Type] = []
        for source in repeat each sources { sourceTypes.append(source) }
        // NB: `found` holds the sources in the order of `sources`, and reads them in turn (as the calling thread
        // sees them: inside a step, the states it staged). No counter is captured here: a captured `var` was
        // boxed on the heap, with run-time exclusivity checks, every time.
        let derive: @Sendable (ComputedSources) throws -> State = { found in
            func sourceState<Each: StoreProtocol>(of _: Each.Type) -> Each.State {
                found.nextState(as: Each.State.self)
            }
            found.rewind()
            return try compute(repeat sourceState(of: each sources))
        }
        let apply: @Sendable (AnyObject, ComputedSources) -> HandlerOutcome = { store, found in
            let computed: State
            do {
                computed = try derive(found)
            } catch {
                return .failed(error)
            }
            return unsafeDowncast(store, to: Store<State>.self).apply { $0 = computed }
        }
        let make: @Sendable ([AnyObject], ComputedSources) throws -> S = { stores, found in
            var index = 0
            func sourceState<Each: StoreProtocol>(of _: Each.Type) -> Each.State {
                defer { index += 1 }
                return unsafeDowncast(stores[index], to: Store<Each.State>.self).committedState
            }
            let store = S()
            store.currentState = try compute(repeat sourceState(of: each sources))
            store.derivesOnRead(found) { try derive(found) }
            return store
        }
        return Computation(sources: sourceTypes, make: make, apply: apply)
    }

    /// Registers the computed store type `S`, whose handler table (user code) is `tables.declared`;
    /// `tables.empty`, made where the store is declared, gives the operations that commit its derived state.
    @usableFromInline
    func registerComputed<State, S: Store<State>>(
        _ type: S.Type,
        tables: (declared: HandlerTable<State>, empty: HandlerTable<State>),
        computation: Computation<State, S>,
        prepare: (@Sendable (S) -> Void)?
    ) throws {
        let (sources, make, apply) = (computation.sources, computation.make, computation.apply)
        guard tables.declared.handlers.isEmpty, tables.declared.fallback == nil else {
            throw FluxionError.computedStoreHandlesActions(typeName(S.self))
        }
        if sources.contains(where: { $0 == S.self }) {
            throw FluxionError.derivationCycle([typeName(S.self), typeName(S.self)])
        }
        let found = ComputedSources(sources.map { (id: ObjectIdentifier($0), name: typeName($0)) })
        // NB: only this dispatcher runs the derivation, inside a step, which keeps it alive: it is lent without a
        // reference count (held weakly, each computation took the slow, side-table path for its counts).
        let dispatcher = Unmanaged.passUnretained(self)
        let derivation = Handler(
            payload: nil, typed: nil, accepts: { _ in true },
            untyped: { store, _ in
                dispatcher._withUnsafeGuaranteedRef { $0.derive(store, from: found, apply: apply) }
            })
        let creation: @Sendable (Dispatcher) throws -> S = { dispatcher in
            let stores = try sources.map { source in try dispatcher.source(source, of: S.self) }
            // NB: the new store reads its sources through `found` from now on, as the derive stage does.
            _ = try found.find(in: dispatcher)
            return try make(stores, found)
        }
        try register(
            type, sources: sources, make: creation, prepare: prepare, table: tables.empty, derivation: derivation)
    }

    /// The derive stage's work for one computed store: computes `store`'s state anew with `apply` if a source
    /// of `sources` has a staged change (an equal state, when it is `Equatable`, is none).
    ///
    /// Run early by ``Store/waitFor(_:)`` from a handler, it runs its sources' handlers first.
    private func derive(
        _ store: AnyObject, from sources: ComputedSources, apply: (AnyObject, ComputedSources) -> HandlerOutcome
    ) -> HandlerOutcome {
        do {
            let count = try sources.find(in: self)
            var changed = false
            for index in 0..<count {
                // NB: a source the action reaches runs first when a `waitFor` runs this early.
                if transaction.isRunningHandler, !transaction.isDeriving {
                    _ = try transaction.waitFor(sources.ids[index].id)
                }
                changed = changed || sources.hasStagedChange(at: index)
            }
            guard changed else {
                // NB: the registration's stores are `StoreRuntime`s.
                return (store as? any StoreRuntime)?.isStagingChanges == true ? .staged : .committed(delivers: false)
            }
            return apply(store, sources)
        } catch {
            return .failed(error)
        }
    }

    /// The store of the source type `source` of the computed store `Computed`, created now if need be.
    private func source<Computed>(_ source: any AnyObject.Type, of computed: Computed.Type) throws -> AnyObject {
        let registration = state.withLock { $0.index.registrations[ObjectIdentifier(source)] }
        guard let registration else {
            throw FluxionError.sourceNotRegistered(typeName(source), derivedStore: typeName(Computed.self))
        }
        return try instance(of: registration)
    }

    /// The derive stage of a batch: derives, once, the computed stores that follow the stores the batch
    /// staged, in dependency order.
    func deriveBatch() throws {
        let staged = transaction.stagedStoreIDs
        guard !staged.isEmpty else { return }
        let dependents = state.withLock { $0.index.computedDependents(of: staged) }
        guard !dependents.isEmpty else { return }
        transaction.isDeriving = true
        defer { transaction.isDeriving = false }
        for registration in dependents {
            guard let derivation = registration.computation else { continue }
            let store = try instance(of: registration)
            try transaction.mutate(store, of: registration) { store in
                derivation.untyped(store, AnyAction(name: AnyAction.mutationName))
            }
        }
    }

    /// Whether a computed store read now by the turn holder is derived for the reader: inside a step, while
    /// its handlers or mutations run (the derive stage reads what it derived).
    var derivesForReaders: Bool { transaction.isOpen && !transaction.isDeriving }
}

/// What registers a computed store `S`: its source types, and the closures that make it and compute it anew
/// from their stores (in the order of `sources`), made where the store is declared.
// NB: `S` is constrained to `Store<State>`, not `AnyObject`: with the latter, Swift 6.3.1 crashed compiling an
// app in release (its cross-module optimisation deserialised `register(_:initialState:factory:)` with a
// mismatched closure type).
@usableFromInline
struct Computation<State, S: Store<State>>: Sendable {
    @usableFromInline let sources: [any AnyObject.Type]
    @usableFromInline let make: @Sendable ([AnyObject], ComputedSources) throws -> S
    @usableFromInline let apply: @Sendable (AnyObject, ComputedSources) -> HandlerOutcome

    @usableFromInline
    init(
        sources: [any AnyObject.Type], make: @escaping @Sendable ([AnyObject], ComputedSources) throws -> S,
        apply: @escaping @Sendable (AnyObject, ComputedSources) -> HandlerOutcome
    ) {
        (self.sources, self.make, self.apply) = (sources, make, apply)
    }
}

/// The sources of a computed store, found once: the store of each registered type does not change while
/// no store type is unregistered.
@usableFromInline
final class ComputedSources: @unchecked Sendable {  // its `var`s: only the thread holding the dispatch turn
    /// Each source's type, and its name for errors, in the order the computation takes them.
    let ids: [(id: ObjectIdentifier, name: String)]
    // NB: only the turn holder touches it (unchecked: W16 +332 instructions/dispatch
    // checked, callgrind, with `buffers` and `cursor`).
    @exclusivity(unchecked) private var found: ContiguousArray<(store: AnyObject, operations: StoreOperations)> = []

    /// Memory for one state of each source, uninitialised between reads; see ``state(at:as:)``.
    // NB: only the turn holder touches it (unchecked: counted with `found`).
    @exclusivity(unchecked) private var buffers: ContiguousArray<UnsafeMutableRawPointer?>
    /// The source ``nextState(as:)`` reads next.
    // NB: only the turn holder touches it (unchecked: counted with `found`).
    @exclusivity(unchecked) private var cursor = 0

    init(_ ids: [(id: ObjectIdentifier, name: String)]) {
        self.ids = ids
        buffers = ContiguousArray(repeating: nil, count: ids.count)
    }

    /// Finds the sources' stores, in order, unless found already; returns how many there are. The turn holder asks.
    ///
    /// - Throws: ``FluxionError/storeNotRegistered(_:waitingStore:action:)`` for a source unregistered since.
    func find(in dispatcher: Dispatcher) throws -> Int {
        // NB: a source is never unregistered while its computed store is registered (it goes with it).
        if !found.isEmpty { return found.count }
        let stores = dispatcher.state.withLock { state in
            ContiguousArray(
                ids.compactMap { id -> (store: AnyObject, operations: StoreOperations)? in
                    guard let store = state.index.instances[id.id], let registration = state.index.registrations[id.id]
                    else { return nil }
                    return (store, registration.operations)
                })
        }
        guard stores.count == ids.count else {
            let missing = ids.first { id in !stores.contains { ObjectIdentifier(type(of: $0.store)) == id.id } }
            throw FluxionError.storeNotRegistered(missing?.name ?? "a source")
        }
        found = stores
        return stores.count
    }

    /// The state of the next source, whose state type is `Value`: the first after ``rewind()``, then the others
    /// in order. See ``state(at:as:)``.
    @usableFromInline
    func nextState<Value>(as _: Value.Type) -> Value {
        defer { cursor += 1 }
        return state(at: cursor, as: Value.self)
    }

    /// Makes ``nextState(as:)`` read the first source next.
    @usableFromInline
    func rewind() {
        cursor = 0
    }

    /// Whether the running step staged a change of the source at `index`; after ``find(in:)``.
    func hasStagedChange(at index: Int) -> Bool {
        found[index].operations.hasStagedChange(found[index].store)
    }

    /// Whether, for a reader inside the running step, a source has changed: it has a staged change, or it is
    /// computed from sources that have (computed stores are staged only in the derive stage); after ``find(in:)``.
    var hasChangeForReaders: Bool {
        found.indices.contains { index in
            hasStagedChange(at: index) || (found[index].store as? any StoreRuntime)?.derivesFromChanges == true
        }
    }

    /// The state of the source at `index`, whose state type is `Value`, as ``Store/state`` reads it; after
    /// ``find(in:)``. NB: read by the source's own operations, specialised for its state where its store type
    /// is declared: the computation's reads, through its parameter pack, are not specialised.
    /// NB: through a buffer of the source's own, made on its first read: a temporary allocation in unspecialised
    /// code looked up generic metadata on every read.
    func state<Value>(at index: Int, as _: Value.Type) -> Value {
        let buffer = buffers[index] ?? makeBuffer(at: index, for: Value.self)
        found[index].operations.readState(found[index].store, buffer)
        // NB: `readState` initialised the buffer with a `Value`, the state of the source at `index`.
        return buffer.assumingMemoryBound(to: Value.self).move()
    }

    private func makeBuffer<Value>(at index: Int, for _: Value.Type) -> UnsafeMutableRawPointer {
        let buffer = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<Value>.size, alignment: MemoryLayout<Value>.alignment)
        buffers[index] = buffer
        return buffer
    }

    deinit {
        for case let buffer? in buffers { buffer.deallocate() }
    }
}
