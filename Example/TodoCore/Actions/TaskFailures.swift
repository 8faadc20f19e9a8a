import Fluxion

/// The errors of the app's effects, kept for the command that started them to report.
///
/// ``TodoApp`` sets it as its dispatcher's `onTaskError`; ``CommandRunner``
/// takes the errors once the command's effects have ended, and throws the first.
public final class TaskFailures: Sendable {
    private let errors = Guarded<[TaskError]>([])

    init() {}

    /// Keeps an error; the dispatcher calls it.
    func record(_ error: TaskError) {
        errors.withLock { $0.append(error) }
    }

    /// Takes the errors kept so far.
    public func take() -> [TaskError] {
        errors.withLock { errors in
            defer { errors = [] }
            return errors
        }
    }
}
