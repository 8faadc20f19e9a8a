/// A middleware that logs each action and, for each store it changed, what changed.
///
/// ```swift
/// dispatcher.addMiddleware(LoggingMiddleware())
/// try dispatcher.dispatch(.toggle, payload: 1)
/// // ▶ toggle(1)
/// //   TodoStore
/// //     items[1].isDone: false → true
/// ```
///
/// Each changed store's old and new state are compared field by field, with
/// `Mirror`; a store whose state is not `Equatable` and whose handler ran
/// without changing anything shows `(no change)`. When a handler throws, the
/// action is rolled back and the dispatch throws: the line after the action
/// is the error (`  ✗ …`). A batch logs each of its actions as it runs, then,
/// once it commits, one line `✓ batch of N actions` and each changed store's
/// diff for the whole batch. Lines go to `write`, standard output by default;
/// to log elsewhere, pass your own:
///
/// ```swift
/// dispatcher.addMiddleware(LoggingMiddleware { line in logger.debug("\(line)") })
/// ```
public struct LoggingMiddleware: Middleware {
    private let write: @Sendable (String) -> Void

    /// Creates a logging middleware that writes each line with `write`.
    public init(write: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.write = write
    }

    /// `true`: the logger prints the changes each action made.
    public var observesChanges: Bool { true }

    /// Prints the action, passes it on, then prints each store's change as a field-by-field diff.
    public func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
        write("▶ \(Self.summary(of: action))")
        let changes: [AnyStoreChange]
        do {
            changes = try next(action)
        } catch {
            write("  ✗ \(error)")
            throw error
        }
        log(changes)
        return changes
    }

    /// Prints the batch, then each change its steps made to a store, as a field-by-field diff.
    public func batchCommitted(_ batch: AnyAction, changes: [AnyStoreChange]) {
        let count = batch.payload(as: [AnyAction].self)?.count ?? 0
        write("✓ batch of \(count) action\(count == 1 ? "" : "s")")
        log(changes)
    }

    /// Writes each store's diff.
    private func log(_ changes: [AnyStoreChange]) {
        for change in changes {
            write("  \(change.storeType)")
            let lines = StateDiff.lines(from: change.oldState, to: change.newState)
            for line in lines.isEmpty ? ["(no change)"] : lines { write("    \(line)") }
        }
    }

    /// The action's name, a short form of its payload, and its error.
    static func summary(of action: AnyAction) -> String {
        var text = action.name
        if !(action.payload is Void) {
            let payload = plainDescription(of: action.payload, qualified: true)
            text += "(\(payload.count > 80 ? payload.prefix(79) + "…" : payload))"
        }
        if let error = action.error { text += " error: \(plainDescription(of: error))" }
        return text
    }
}
