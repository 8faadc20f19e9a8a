import Foundation

/// What a tracked task's end tells, once the task has let go of its dispatcher: the observers of task
/// events (a journal notes the effect's outcome), the drain waiters it resumes, and the observers of task ends.
///
/// NB: built under the dispatcher's lock as the task is forgotten, and told by the task after the frame that
/// held the dispatcher returned: a `shutdown()` its end resumes returns with nothing of the dispatcher kept.
struct TaskEnd {
    let effect: EffectTag?
    let outcome: EffectOutcome
    let waiters: [CheckedContinuation<Void, Never>]
    let observers: [@Sendable () -> Void]
    let events: [@Sendable (TaskEvent) -> Void]

    /// Tells each observer, in order, and resumes the drain waiters.
    func tell() {
        if let effect, !events.isEmpty {
            let event = TaskEvent.ended(effect, outcome, at: .readingRealTimeClock())
            for observer in events { observer(event) }
        }
        for waiter in waiters { waiter.resume() }
        for observer in observers { observer() }
    }
}
