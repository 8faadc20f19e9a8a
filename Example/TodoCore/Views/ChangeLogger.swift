import Fluxion

/// Prints each action and what it changed in each store: `todo --verbose`.
///
/// ```
/// addTodo("Buy milk") → TodoStore
///   items[0]: + [ ] Buy milk
/// addTodo("Buy milk") → StatsStore
///   total: 0 → 1
/// ```
///
/// It is a whole-dispatcher observer, so it hears of an action through the
/// changes it made, one store at a time; an action no store handles leaves
/// no trace. Everything it does is in this type, to be replaced by a logging
/// middleware once Fluxion has middleware.
public final class ChangeLogger: Sendable {
    private let write: @Sendable (String) -> Void

    /// Creates a logger that prints with `write`.
    public init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Logs every change of `dispatcher`'s stores, for as long as the logger lives.
    public func log(_ dispatcher: Dispatcher) {
        dispatcher.observe(owner: self) { logger, change in
            logger.write(logger.lines(for: change).joined(separator: "\n"))
        }
    }

    /// The lines for one store's change: the action and the store, then the differences.
    func lines(for change: AnyStoreChange) -> [String] {
        let header = "\(Self.describe(change.action)) → \(change.storeType)"
        if let error = change.error {
            return [header, "  rejected: \(error)"]
        }
        if let error = change.action.error {
            return [header, "  carried error: \(error)", "  (no change)"]
        }
        let differences = StateDiff.lines(from: change.oldState, to: change.newState)
        return [header] + (differences.isEmpty ? ["(no change)"] : differences).map { "  " + $0 }
    }

    /// An action as `name(payload)`, or `name` for an action without a payload.
    static func describe(_ action: AnyAction) -> String {
        if action.payload is Void { return action.name }
        return "\(action.name)(\(StateDiff.describe(action.payload)))"
    }
}
