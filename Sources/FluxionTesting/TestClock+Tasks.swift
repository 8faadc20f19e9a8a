import Fluxion

extension TestClock {
    /// Creates the clock of a test dispatcher: it starts the tasks `dispatcher` tracks and, before each step
    /// of time, waits until they have settled.
    ///
    /// Settled means that no job of those tasks or of their child tasks is enqueued or running on the
    /// clock's ``JobCountingExecutor``, and that there are at least as many sleeps on the clock as
    /// running tasks. Where task executors are not available (Apple systems before macOS 15, iOS 18,
    /// tvOS 18, watchOS 11 and visionOS 2), the tasks start as usual and only the second condition holds.
    convenience init(runningTasksOf dispatcher: Dispatcher) {
        let changed = Signal()
        let isIdle: @Sendable () -> Bool
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            let executor = JobCountingExecutor(notifying: changed)
            dispatcher.taskStarter = executor
            isIdle = { executor.isIdle }
        } else {
            isIdle = { true }
        }
        dispatcher.observeTaskEnds { changed.notify() }
        self.init(changed: changed) { clock, deadline in
            while true {
                let generation = changed.generation
                let isRunning = !isIdle()
                let waiting = dispatcher.runningTaskCount - clock.sleeperCount
                guard isRunning || waiting > 0 else { return nil }
                guard ContinuousClock.now < deadline else {
                    guard !isRunning else {
                        return "the tasks neither ended nor slept on the test clock in time: they still run "
                            + "(a loop that does not sleep on the clock?)"
                    }
                    return "\(waiting) task(s) neither ended nor slept on the test clock in time: "
                        + "they wait for something else"
                }
                await changed.wait(after: generation, until: deadline)
            }
        }
    }
}
