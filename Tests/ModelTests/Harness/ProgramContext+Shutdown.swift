import Fluxion
import Foundation

// A cancellation from another thread while a step runs, and `shutdown()` while an action is in flight:
// the handler of the step waits on its thread while the other thread acts.
extension ProgramContext {
    /// Cancels the tasks under `id` from a thread of its own, and returns once that cancellation has.
    func cancelFromAnotherThread(_ id: String, on dispatcher: Dispatcher) {
        let cancelled = DispatchSemaphore(value: 0)
        Thread {
            dispatcher.cancelTasks(id: id)
            cancelled.signal()
        }.start()
        cancelled.wait()
    }

    /// Waits, in the first touched store's handler of `command`, until `shutdown()` has begun, if the
    /// program dispatches `command` as the action in flight of its shutdown.
    func pauseIfInFlight(_ command: Command) {
        guard let pause = inFlight.withLock({ $0?.tag == command.tag ? $0 : nil }) else { return }
        inFlight.withLock { $0 = nil }
        pause.reached.signal()
        pause.resume.wait()
    }

    /// Dispatches `command` on a thread of its own, as an action in flight; returns once its handler waits
    /// in ``pauseIfInFlight(_:)`` (or the dispatch returned without reaching it), with what lets it go on
    /// and what waits for its dispatch's outcome.
    func dispatchInFlight(_ command: Command, on dispatcher: Dispatcher) -> (
        goOn: @Sendable () -> Void, outcome: @Sendable () -> String
    ) {
        let pause = InFlightPause(tag: command.tag)
        inFlight.withLock { $0 = pause }
        let outcome = Locked("ok")
        let returned = DispatchSemaphore(value: 0)
        Thread {
            do {
                try dispatcher.dispatch(.op, payload: command, error: command.error)
            } catch {
                outcome.withLock { $0 = "threw \(Self.describe(error))" }
            }
            pause.reached.signal()  // NB: a dispatch that never reached the pause lets the program go on too
            returned.signal()
        }.start()
        pause.reached.wait()
        return (
            { [self] in
                inFlight.withLock { $0 = nil }
                pause.resume.signal()
            },
            {
                returned.wait()
                return outcome.withLock { $0 }
            }
        )
    }
}

/// Where the action in flight of a shutdown waits, and what lets it go on.
final class InFlightPause: Sendable {
    let tag: Int
    let reached = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)

    init(tag: Int) {
        self.tag = tag
    }
}
