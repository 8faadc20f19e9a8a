import Foundation

/// How a store's state is archived: where, under which key, how often, and in which schema version.
///
/// Pass one when you register a store whose state is `Codable`:
///
/// ```swift
/// try dispatcher.register(
///     TodoStore.self,
///     persistence: Persistence(storage: FileStateStorage(directory: directory), key: "todos")
/// )
/// ```
///
/// The dispatcher restores the archive when it creates the store, before any
/// handler runs, and saves the state once changes have stopped for
/// ``debounce``. See <doc:PersistingState>.
public struct Persistence<State: Codable & Sendable>: Sendable {
    /// Where the archive lives.
    public var storage: any StateStorage

    /// The archive's name in ``storage``.
    ///
    /// A key is 1 to 128 characters: ASCII letters, digits, `-`, `_` and `.`,
    /// not starting with `.`; it is a file name in ``FileStateStorage``.
    public var key: String

    /// How long the state must stay unchanged before it is saved; 2 seconds by default.
    ///
    /// A burst of changes produces one save, `debounce` after the last
    /// change; a store that never stays unchanged that long is still saved
    /// at the latest five `debounce` intervals after its first unsaved change,
    /// so that a steady stream of changes is not kept from disk. Zero saves
    /// after each change, still off the dispatching thread; at most a day.
    public var debounce: Duration

    /// The schema version of `State` that this code writes and reads; 1 by default.
    ///
    /// Raise it when a change to `State` makes older archives undecodable,
    /// and give a ``migrate`` closure that reads them.
    public var version: Int

    /// When and where saves run; a ``DispatchPersistenceScheduler`` by default.
    public var scheduler: any PersistenceScheduler

    /// Reads an archive of an older schema version; `nil` by default.
    ///
    /// Called with the archive's version and the JSON of its state, when the
    /// version is lower than ``version``. Decode the old shape and convert it:
    ///
    /// ```swift
    /// migrate: { version, json in
    ///     let old = try JSONDecoder().decode(TodoListV1.self, from: json)
    ///     return TodoList(items: old.titles.map { Todo(title: $0) })
    /// }
    /// ```
    ///
    /// Without a closure, an older archive is decoded as the current `State`,
    /// which works when the change only added fields with defaults handled by
    /// your `Decodable` conformance. When decoding or the closure fails, the
    /// archive is set aside and ``PersistenceError/migrationFailed(key:from:to:setAsideAs:reason:)`` is reported.
    public var migrate: (@Sendable (_ version: Int, _ json: Data) throws -> State)?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - storage: Where the archive lives.
    ///   - key: The archive's name in `storage`; see ``key`` for the rule.
    ///   - debounce: How long the state must stay unchanged before it is saved; 2 seconds by default.
    ///   - version: The schema version of `State`; 1 by default.
    ///   - scheduler: When and where saves run; a new ``DispatchPersistenceScheduler`` by default.
    ///   - migrate: Reads an archive of an older schema version; see ``migrate``.
    public init(
        storage: any StateStorage,
        key: String,
        debounce: Duration = .seconds(2),
        version: Int = 1,
        scheduler: any PersistenceScheduler = DispatchPersistenceScheduler(),
        migrate: (@Sendable (_ version: Int, _ json: Data) throws -> State)? = nil
    ) {
        self.storage = storage
        self.key = key
        self.debounce = debounce
        self.version = version
        self.scheduler = scheduler
        self.migrate = migrate
    }

    /// Checks the configuration before registration.
    ///
    /// - Throws: ``PersistenceError/invalidKey(_:reason:)`` or ``PersistenceError/invalidConfiguration(key:reason:)``.
    func validate() throws {
        try validateArchiveKey(key)
        if debounce < .zero {
            throw PersistenceError.invalidConfiguration(
                key: key, reason: "the debounce interval \(debounce) is negative")
        }
        if debounce > .seconds(86_400) {
            throw PersistenceError.invalidConfiguration(
                key: key, reason: "the debounce interval \(debounce) is longer than a day")
        }
        if version < 1 {
            throw PersistenceError.invalidConfiguration(
                key: key, reason: "the schema version \(version) is below 1")
        }
    }
}

/// Checks that `key` can name an archive in every storage: a file name, a defaults key.
///
/// - Throws: ``PersistenceError/invalidKey(_:reason:)``.
func validateArchiveKey(_ key: String) throws {
    let allowed: Set<Character> = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
    if key.isEmpty {
        throw PersistenceError.invalidKey(key, reason: "a key must not be empty")
    }
    if key.utf8.count > 128 {
        throw PersistenceError.invalidKey(key, reason: "a key must be at most 128 characters long")
    }
    if key.hasPrefix(".") {
        throw PersistenceError.invalidKey(key, reason: "a key must not start with '.'")
    }
    if let bad = key.first(where: { !allowed.contains($0) }) {
        throw PersistenceError.invalidKey(
            key, reason: "'\(bad)' is not allowed; use letters, digits, '-', '_' and '.'")
    }
}
