import Dispatch

extension Dispatcher {
    /// Registers a store type whose state is archived, created with `init()` on first need.
    ///
    /// ```swift
    /// try dispatcher.register(TodoStore.self, persistence: Persistence(storage: storage, key: "todos"))
    /// ```
    ///
    /// When the dispatcher creates the store, it restores the archive before
    /// any handler runs or any observer is added: observers never see the
    /// initial state of a restored store. From then on, the store's state is
    /// saved once it has been unchanged for the configuration's
    /// ``Persistence/debounce``. See <doc:PersistingState>.
    ///
    /// The storage's location — a ``FileStateStorage`` directory, a
    /// ``UserDefaultsStateStorage``'s defaults and prefix, an
    /// ``InMemoryStateStorage`` — belongs to one live dispatcher at a time:
    /// this dispatcher owns it from this registration on, and while it does,
    /// another dispatcher (in this process or, for a directory, another one)
    /// that registers a store there is refused. It releases it in
    /// ``shutdown()`` and when it is freed (after writing what is pending),
    /// or as its process ends. See
    /// <doc:PersistingState#One-live-dispatcher-per-location>.
    ///
    /// - Throws: ``PersistenceError/invalidKey(_:reason:)`` or
    ///   ``PersistenceError/invalidConfiguration(key:reason:)`` for a
    ///   configuration that cannot work;
    ///   ``PersistenceError/locationInUse(location:byAnotherProcess:)`` while
    ///   another live dispatcher persists to the storage (shut it down with
    ///   ``shutdown()``, or let it go, then register again);
    ///   ``PersistenceError/fileOperationFailed(operation:path:reason:)`` for a
    ///   ``FileStateStorage`` directory that cannot be created or locked;
    ///   ``FluxionError/storeAlreadyRegistered(_:)`` if the type is registered already.
    public func register<State, S: Store<State> & DefaultInitializable>(
        _ type: S.Type,
        persistence: Persistence<State>
    ) throws {
        try register(type, persistence: persistence) { S() }
    }

    /// Not available: the dispatcher cannot create a store type that is not ``DefaultInitializable``.
    ///
    /// Conform the store type to ``DefaultInitializable``, or register it with
    /// a factory, ``register(_:persistence:factory:)``.
    @available(
        *, unavailable,
        message:
            "register(_:persistence:) creates the store with init(): conform the store type to DefaultInitializable, or pass a factory, as in register(MyStore.self, persistence: persistence) { MyStore(api: api) }"
    )
    public func register<State, S: Store<State>>(_ type: S.Type, persistence: Persistence<State>) throws {}

    /// Registers a store type whose state is archived, created with `factory` on first need.
    ///
    /// ```swift
    /// try dispatcher.register(TodoStore.self, persistence: Persistence(storage: storage, key: "todos")) {
    ///     TodoStore(api: api)
    /// }
    /// ```
    ///
    /// The archive is restored right after `factory` returns, before the
    /// store is published; see ``register(_:persistence:)``.
    ///
    /// - Throws: The errors of ``register(_:persistence:)``.
    public func register<State, S: Store<State>>(
        _ type: S.Type,
        persistence: Persistence<State>,
        factory: @escaping @Sendable () -> S
    ) throws {
        try register(type, persistence: persistence) { prepare in
            try self.register(type, factory: factory, prepare: prepare)
        }
    }

    /// Reserves the archive's key, then calls `registering` with what restores (unless not `restoring`)
    /// and saves the new store.
    @usableFromInline
    func register<State, S: Store<State>>(
        _ type: S.Type,
        persistence: Persistence<State>,
        restoring: Bool = true,
        registering: (_ prepare: @escaping @Sendable (S) -> Void) throws -> Void
    ) throws {
        try persistence.validate()
        let center = persistenceCenter
        let id = ObjectIdentifier(S.self)
        let isNewKey = try center.reserve(persistence.key, for: id, named: typeName(S.self))
        do {
            let lease = try center.claimLocation(of: persistence.storage)
            do {
                try registering { store in center.attach(persistence, lease: lease, to: store, restoring: restoring) }
            } catch {
                if let lease { center.unclaim(lease) }
                throw error
            }
        } catch {
            if isNewKey { center.releaseKey(of: id) }
            throw error
        }
    }

    /// Called with each persistence error: a bad archive at restore, a failed save; `nil` by default.
    ///
    /// Restoring and saving happen away from your call sites, so their errors
    /// are reported here rather than thrown. Without a hook, each is written
    /// to standard error. Set it before the first store is created, to hear
    /// of restore errors too. It is called on the thread that restored or
    /// saved: the thread creating the store, the scheduler's, or one calling
    /// ``flush()``.
    ///
    /// The hook is one slot: setting it replaces the closure set before, which
    /// then hears nothing. To send these to several places, call each from one
    /// closure.
    public var onPersistenceError: (@Sendable (PersistenceError) -> Void)? {
        get { persistenceCenter.reporter.handler }
        set { persistenceCenter.reporter.handler = newValue }
    }

    /// Writes every persistent store's pending state now, and returns once it is written; it blocks the calling thread.
    ///
    /// Call it when the app goes to the background or quits (or
    /// ``shutdown()``, which also releases the storages for another dispatcher). A write under
    /// way is waited for, then the newer state, if any, is written. Save
    /// errors go to ``onPersistenceError``. From async code, use
    /// ``waitUntilFlushed()``, which does not block a concurrency thread.
    public func flush() {
        persistenceCenter.flush()
    }

    /// Writes every persistent store's pending state now, and waits until it is written, without blocking a thread.
    ///
    /// ```swift
    /// await dispatcher.waitUntilFlushed()
    /// ```
    ///
    /// The async counterpart of the blocking ``flush()``, named apart
    /// from it so that `await` cannot call the blocking one by mistake. The
    /// write runs on a queue of its own, whose thread it may block: not on a
    /// global queue, whose threads on Linux are those Swift concurrency runs
    /// every task on.
    public func waitUntilFlushed() async {
        // NB: the work item holds the persistence alone, not the dispatcher, which it would keep past the return.
        let center = persistenceCenter
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // NB: a serial queue has a thread of its own; on Linux, the global queues' are the global executor's.
            DispatchQueue(label: "Fluxion.flush", qos: .userInitiated).async {
                center.flush()
                continuation.resume()
            }
        }
    }
}
