/// Starts the tasks a dispatcher tracks: `FluxionTesting`'s clock starts them where it can tell when they are idle.
///
/// Without one, a dispatcher starts each tracked task with `Task(priority:operation:)`. A class: the
/// dispatcher checks for one at each effect's start, and an optional reference is tested without a copy.
package protocol TaskStarter: AnyObject, Sendable {
    /// Starts `operation` in a new task, and returns the task.
    func start<Value: Sendable>(
        priority: TaskPriority?,
        _ operation: @escaping @Sendable () async throws -> Value
    ) -> Task<Value, any Error>
}

extension Dispatcher {
    /// What starts the tracked tasks; `nil`, the default, starts them with `Task(priority:operation:)`.
    package var taskStarter: (any TaskStarter)? {
        get { state.withLock { $0.taskStarter } }
        set { state.withLock { $0.taskStarter = newValue } }
    }
}
