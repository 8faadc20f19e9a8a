import Fluxion

/// The app's dispatcher and its four stores, wired and restored.
///
/// ```swift
/// let app = try TodoApp(storage: FileStateStorage(directory: directory), key: "todos")
/// try app.dispatcher.dispatch(.addTodo, payload: "Buy milk")
/// print(app.stats.state)  // 1 item, 0 done, 1 left
/// app.dispatcher.flush()
/// ```
///
/// Three stores are persisted in `storage`, under `key` (the items),
/// `key.filter` and `key.history`; ``StatsStore`` is computed from the items. The stores
/// are created right away, so an archive that cannot be restored is reported
/// to `onPersistenceError` before the initializer returns.
public final class TodoApp: Sendable {
    /// The dispatcher the views dispatch to.
    public let dispatcher: Dispatcher
    /// The items.
    public let todos: TodoStore
    /// Which items the list shows.
    public let filter: FilterStore
    /// The counts of the items.
    public let stats: StatsStore
    /// The lists `undo` goes back to.
    public let history: HistoryStore
    /// The errors of the effects (the import's), for the command that started them.
    public let failures = TaskFailures()

    /// The keys of the archives for a todo file whose key is `key`: items, filter, history.
    public static func archiveKeys(for key: String) -> (todos: String, filter: String, history: String) {
        (key, key + ".filter", key + ".history")
    }

    /// Registers and creates the stores, restoring their archives from `storage`.
    ///
    /// - Parameters:
    ///   - storage: Where the archives live.
    ///   - key: The key of the items' archive; the others add `.filter` and `.history`.
    ///   - debounce: How long the state must stay unchanged before it is saved;
    ///     zero, the default, saves after each change (off the dispatching thread).
    ///   - onPersistenceError: Hears of archives that cannot be restored or saved.
    /// - Throws: ``PersistenceError/invalidKey(_:reason:)`` for a key that cannot name an archive;
    ///   ``PersistenceError/locationInUse(location:byAnotherProcess:)`` while another app (another `todo`
    ///   process, say) persists to `storage`.
    public init(
        storage: any StateStorage,
        key: String,
        debounce: Duration = .zero,
        onPersistenceError: (@Sendable (PersistenceError) -> Void)? = nil
    ) throws {
        let keys = Self.archiveKeys(for: key)
        let dispatcher = Dispatcher()
        dispatcher.onPersistenceError = onPersistenceError

        try dispatcher.register(
            TodoStore.self, persistence: Persistence(storage: storage, key: keys.todos, debounce: debounce))
        try dispatcher.register(
            FilterStore.self, persistence: Persistence(storage: storage, key: keys.filter, debounce: debounce))
        try dispatcher.register(StatsStore.self, computedFrom: TodoStore.self) { Stats(counting: $0.items) }
        try dispatcher.register(
            HistoryStore.self, derivedFrom: TodoStore.self,
            persistence: Persistence(storage: storage, key: keys.history, debounce: debounce)
        ) { HistoryStore(tracking: $0) }

        dispatcher.onTaskError = { [failures] in failures.record($0) }
        self.dispatcher = dispatcher
        todos = try dispatcher.store(TodoStore.self)
        filter = try dispatcher.store(FilterStore.self)
        stats = try dispatcher.store(StatsStore.self)
        history = try dispatcher.store(HistoryStore.self)
    }
}
