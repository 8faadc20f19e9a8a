import Dispatch
import Fluxion

/// Runs the tasks of a ``TestDispatcher``, child tasks included, and counts their jobs, so that its
/// ``TestClock`` can tell when none of them can run.
///
/// A task started here (as the dispatcher's ``TaskStarter``) prefers this executor, and so do its child
/// tasks (`async let`, task groups) and the default actors they call: each of their jobs is enqueued here.
/// Waking a sleep on the clock enqueues the woken job at once, in `continuation.resume()`, so the count
/// goes up before `advance` looks at it again; a job that wakes another (a child that ends wakes its
/// parent) enqueues it before its own run ends. The count is zero only when every such task waits.
///
/// Work on the main actor, or on an actor with an executor of its own, runs there and is not counted.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class JobCountingExecutor: TaskExecutor, TaskStarter {
    /// How many jobs are enqueued or running.
    private let jobs = Guarded(0)
    /// Told each time the last enqueued job has run.
    private let idle: Signal

    /// Creates an executor that tells `idle` each time it has run the last job enqueued.
    init(notifying idle: Signal) {
        self.idle = idle
    }

    /// Whether no job is enqueued or running.
    var isIdle: Bool { jobs.withLock { $0 == 0 } }

    func enqueue(_ job: consuming ExecutorJob) {
        jobs.withLock { $0 += 1 }
        let job = UnownedJob(job)
        // NB: the closure keeps the executor alive until the job has run; a task keeps its preferred executor.
        DispatchQueue.global().async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
            let isIdle = self.jobs.withLock { jobs in
                jobs -= 1
                return jobs == 0
            }
            if isIdle { self.idle.notify() }
        }
    }

    /// Starts `operation` in a task that prefers this executor.
    func start<Value: Sendable>(
        priority: TaskPriority?,
        _ operation: @escaping @Sendable () async throws -> Value
    ) -> Task<Value, any Error> {
        Task(executorPreference: self, priority: priority, operation: operation)
    }
}
