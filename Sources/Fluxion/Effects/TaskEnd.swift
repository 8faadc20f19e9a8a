import Foundation

/// What a tracked task's end tells, once the task has let go of its dispatcher: the observers of task
/// events (a journal notes the effect's outcome), the drain waiters it resumes, and the observers of task ends.
///
/// NB: made under the dispatcher's lock as the task is forgotten, only when someone waits or watches (a
/// class: an absent one costs no destruction of its fields), and told by the task once it let go of the
/// dispatcher: a `shutdown()` its end resumes returns with nothing of the dispatcher kept.
final class TaskEnd {
    private let effect: EffectTag?
    private let outcome: EffectOutcome
    private let waiters: [CheckedContinuation<Void, Never>]
    private let observers: [@Sendable () -> Void]
    private let events: [@Sendable (TaskEvent) -> Void]

    init(
        effect: EffectTag?, outcome: EffectOutcome, waiters: [CheckedContinuation<Void, Never>],
        observers: [@Sendable () -> Void], events: [@Sendable (TaskEvent) -> Void]
    ) {
        self.effect = effect
        self.outcome = outcome
        self.waiters = waiters
        self.observers = observers
        self.events = events
    }

    /// Tells each observer of task events, resumes the drain waiters, then tells the observers of task ends.
    func tell() {
        if let effect, !events.isEmpty {
            let event = TaskEvent.ended(effect, outcome, at: .readingRealTimeClock())
            for observer in events { observer(event) }
        }
        for waiter in waiters { waiter.resume() }
        for observer in observers { observer() }
    }
}
