import Foundation

/// What happened to an effect: a task a step asked for. A journal records them.
enum TaskEvent: Sendable {
    /// The effect's task started, when its step committed.
    case started(EffectTag, at: Date)
    /// The effect was not started: effects are paused while a journal replays.
    case skipped(EffectTag)
    /// The effect's task ended.
    case ended(EffectTag, EffectOutcome, at: Date)
}

/// How an effect's task ended.
enum EffectOutcome: Sendable {
    /// Its work returned.
    case finished
    /// Its work threw this error: a journal describes it, with its redacted keys hidden in its file.
    case failed(any Error)
    /// It was cancelled, and its work ended with `CancellationError`.
    case cancelled
}
