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
/// `Mirror`; a store whose handler ran without changing anything shows
/// `(no change)`. When a handler throws, the dispatch throws, and the line
/// after the action is the error (`  ✗ …`): the stores' changes are not
/// listed, though their observers hear them. Lines go to `write`, standard
/// output by default; to log elsewhere, pass your own:
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

    public var observesChanges: Bool { true }

    public func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
        write("▶ \(Self.summary(of: action))")
        let changes: [AnyStoreChange]
        do {
            changes = try next(action)
        } catch {
            write("  ✗ \(error)")
            throw error
        }
        for change in changes {
            write("  \(change.storeType)")
            let lines = StateDiff.lines(from: change.oldState, to: change.newState)
            for line in lines.isEmpty ? ["(no change)"] : lines { write("    \(line)") }
        }
        return changes
    }

    /// The action's name, a short form of its payload, and its error.
    static func summary(of action: AnyAction) -> String {
        var text = action.name
        if !(action.payload is Void) {
            let payload = String(reflecting: action.payload)
            text += "(\(payload.count > 80 ? payload.prefix(79) + "…" : payload))"
        }
        if let error = action.error { text += " error: \(error)" }
        return text
    }
}
