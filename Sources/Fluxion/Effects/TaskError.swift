/// An error of asynchronous work a dispatcher tracks: what a task threw, or a dispatch of a task that was
/// refused or dropped.
///
/// Every one reaches ``Dispatcher/onTaskError`` or, while it is `nil`, standard error:
///
/// ```swift
/// dispatcher.onTaskError = { error in logger.error("\(error)") }
/// ```
public struct TaskError: Error, Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// The task's work threw ``TaskError/error``.
        case threw
        /// A dispatch the task made was refused and changed nothing: the task was cancelled through
        /// the dispatcher (``TaskError/error`` is `CancellationError`), or a batch came while the
        /// journal showed the past.
        case refused
        /// A dispatch the task made while the journal showed the past was held, then dropped by
        /// ``Journal/resumeDiscardingLaterSteps()``.
        case dropped
    }

    /// What happened.
    public let kind: Kind
    /// The id the task was started under; `nil` for a task started without one.
    public let taskID: (any Hashable & Sendable)?
    /// The action concerned: the one refused or dropped (`nil` when what was refused is starting a
    /// task, or an effect asked for outside its handler); for a thrown error, the action whose effect
    /// the task was, or `nil` for a task started from outside any action.
    public let action: String?
    /// The error: what the task threw, or why its dispatch was refused or dropped.
    public let error: any Error

    /// Creates a task error; Fluxion makes them, tests may too.
    public init(_ kind: Kind, taskID: (any Hashable & Sendable)?, action: String?, error: any Error) {
        self.kind = kind
        self.taskID = taskID
        self.action = action
        self.error = error
    }

    /// Whether the task was started under `id`.
    public func hasTaskID<ID: Hashable & Sendable>(_ id: ID) -> Bool {
        (taskID as? ID) == id
    }

    /// The error in one line: the task's id and kind, and what went wrong.
    public var description: String {
        let task = taskID.map { "task \"\($0)\"" } ?? "a task"
        switch kind {
        case .threw:
            let effect = action.map { " (an effect of \($0))" } ?? ""
            return "\(task)\(effect) failed: \(error)"
        case .refused:
            guard let action else { return "\(task) tried to start a task, which was refused: \(error)" }
            return "\(task) dispatched '\(action)', which was refused: \(error)"
        case .dropped:
            return "\(task) dispatched '\(action ?? "?")' while the journal showed the past; it was dropped: \(error)"
        }
    }
}
