import Foundation

/// How long the harness waits, at most, for what only a hang would keep from happening.
///
/// The harness decides that tasks settled, drained or returned from what they signal themselves, never from
/// the time that passed: this bound only turns a hang into a failure that says "hung". It is long enough that
/// a busy machine never reaches it (the suite's other tests, or other processes, can keep a task from running
/// for tens of seconds).
enum HangGuard {
    static let seconds: TimeInterval = 300

    /// When a wait that starts now gives up.
    static var deadline: DispatchTime { .now() + seconds }
}
