/// Why a step — one action, or one batch — ran, in the dispatcher's own step serials.
///
/// The journal turns serials into its step numbers.
enum StepCause: Sendable {
    /// Dispatched from outside any step: a view, an action creator, a task started from outside.
    case outside
    /// Dispatched by a handler, an observer or a middleware of the step with this serial.
    case queued(by: UInt64)
    /// Dispatched by an effect.
    case effect(EffectTag)
}

/// Which effect a task is: the step that asked for it, and its place among that step's effects.
///
/// A class: causes, events and tasks share one, and copy a reference. An effect's ``TrackedTask`` is its
/// tag (a subclass: one allocation for both); a step's cancellation of an id is a tag alone.
class EffectTag: @unchecked Sendable {  // NB: immutable: its fields are constants
    /// The serial of the step that asked for it.
    let step: UInt64
    /// The effects the step asked for before it.
    let index: Int
    /// The id it runs under, if any.
    let id: TaskKey?
    /// The name of the action that asked for it.
    let action: String
    /// Whether it cancels the tasks under `id` (``Effects/cancel(id:)``) rather than starting one.
    let isCancellation: Bool

    init(step: UInt64, index: Int, id: TaskKey?, action: String, isCancellation: Bool = false) {
        self.step = step
        self.index = index
        self.id = id
        self.action = action
        self.isCancellation = isCancellation
    }

    /// The id as it prints, or `#index` for an effect without one; `cancel id` for a cancellation.
    var name: String {
        let name = id.map { "\($0.value)" } ?? "#\(index + 1)"
        return isCancellation ? "cancel \(name)" : name
    }
}
