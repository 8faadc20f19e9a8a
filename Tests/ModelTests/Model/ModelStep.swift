/// A step of the model's journal.
struct ModelStep {
    /// Unique in a program: a sequence number comes back after `resumeDiscardingLaterSteps()`.
    var id: Int
    var sequence: Int
    var name: String
    var cause: String
    /// The stores it changed, in registration order: what the journal line lists.
    var changes: [ModelChange]
    var effects: [(name: String, outcome: String?)] = []
    /// How a replay runs it again.
    var replay: StepReplay

    var changed: [Int] { changes.map(\.store) }

    var text: String {
        RecordText.line(
            sequence: sequence, name: name, cause: cause, stores: changed.map { ModelHandler.storeNames[$0] },
            effects: effects.map { "\($0.name): \($0.outcome ?? "running")" })
    }
}

/// The change of one store in a step: the store, as its generation, and its states before and after.
struct ModelChange {
    var store: Int
    var generation: Int
    var old: [Int]
    var new: [Int]

    var instance: StoreInstance { StoreInstance(store: store, generation: generation) }
}

/// One store of the model: a store type, and how many times it was registered again before it was made.
struct StoreInstance: Hashable {
    var store: Int
    var generation: Int
}

/// How a replay runs a recorded step again.
enum StepReplay {
    /// It dispatches these actions again: one, or a batch of them.
    case commands([Command], isBatch: Bool)
    /// It sets the step's recorded states: a batch with an inline mutation does not replay.
    case setsStates
    /// It dispatches this `model.poke` again.
    case poke(Poke)
}

/// A line of the model's journal file.
enum FileLine {
    /// The step of this id.
    case step(Int)
    /// A resume: the state of every store the steps in memory changed, as they were then, in order.
    case resume([(store: Int, state: [Int])])
}

/// What the model runs as one step.
enum StepAction {
    case op(Command)
    case batch([BatchItem], aborts: Bool)
    case poke(Poke)
}
