import Fluxion
import Foundation

/// Starts a dispatcher's tracked tasks on threads of their own: each job of theirs runs on a new thread,
/// not on the threads of Swift's global executor.
///
/// `LiveTaskCounter` starts them here. On the global executor, which has a thread per core (up to two while
/// some block), they queued behind the jobs of the tests running beside them (tests that block, and
/// tasks whose dispatches block while another thread holds the dispatch turn), which made a program slow
/// on a busy two-core machine. Plain `Task`s they start run on the global executor; the harness waits for
/// them too, however long they take (see ``HangGuard``).
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class OwnThreadsTaskStarter: TaskExecutor, TaskStarter {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // NB: the closure keeps the executor alive until the job has run; a task keeps its preferred executor.
        Thread { job.runSynchronously(on: self.asUnownedTaskExecutor()) }.start()
    }

    /// Starts `operation` in a task that prefers this executor.
    func start<Value: Sendable>(
        priority: TaskPriority?,
        _ operation: @escaping @Sendable () async throws -> Value
    ) -> Task<Value, any Error> {
        Task(executorPreference: self, priority: priority, operation: operation)
    }
}
