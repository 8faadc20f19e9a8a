/// What the docs promise, as a plain single-threaded program: given the same operations as a real
/// dispatcher, it predicts the whole ``World`` after each.
///
/// Nothing here is shared with Fluxion's code: it is written from the docs' sentences (the DocC
/// articles "Working with Effects", "Suspending and Batching", "Recording, Replaying and Time Travel",
/// "Middleware and Async Work"), and is meant to be read beside them.
struct ReferenceModel {
    /// What is seen; `world.states` are the states the stores show (the past while travelling).
    var world = World()
    /// The states after the newest step: the present, whatever the stores show.
    var present: [[Int]] = [[], [], [], [], []]
    /// The journal's steps in memory, oldest first.
    var steps: [ModelStep] = []
    /// The steps `resumeDiscardingLaterSteps()` dropped: still in the journal's file.
    var droppedSteps: [ModelStep] = []
    var nextSequence = 1
    /// The step the stores show while travelling; `nil` in the present.
    var position: Int?
    /// Dispatches of tasks held while the past is shown, in order.
    var held: [TaskDispatch] = []
    var suspensions = 0
    /// Actions waiting for the last suspension's release, in order.
    var waiting: [Waiting] = []
    /// Every tracked task, and every plain child task, by its gate.
    var tasks: [Int: ModelTask] = [:]
    /// Gates the program opened.
    var opened: Set<Int> = []
    /// What runs after the current step, first in, first out.
    var queue: [Queued] = []
    var observerArms: [Int: [Reaction]] = [:]
    var middlewareArms: [MiddlewareReaction] = []
    /// Persistent stores (A, B) changed since the last flush, and the archive as flushed.
    var unsaved: Set<Int> = []
    var archive: [String: [Int]] = [:]
    /// Starts still queued that a cancellation reached: they start cancelled, and never run their work.
    var cancelledBeforeStart: Set<Int> = []
    /// The tasks a turn's steps started, by gate, in order: their work begins once nothing is queued, so a
    /// cancellation later in the turn keeps it from ever running (see `ReferenceModel+Shutdown.swift`).
    var awaiting: [Int] = []
    /// Whether `shutdown()` has begun: every task asked for from then on ends cancelled, unstarted.
    var isShutDown = false
    /// The states before the oldest step in memory.
    var baseStates: [[Int]] = [[], [], [], [], []]

    var isTravelling: Bool { position != nil }

    /// The sequence number of the newest step (0 for none).
    var newest: Int { nextSequence - 1 }

    /// Applies `operation`; `world.outcome` says what it returned or threw.
    mutating func apply(_ operation: Operation) {
        world.outcome = "ok"
        world.archive = nil
        switch operation {
        case .dispatch(let command):
            if suspensions > 0 { return waiting.append(.outside(command)) }
            if isTravelling {
                world.outcome = "threw travelling"
                return
            }
            dispatchNow(.op(command))
        case .dispatchBypassingSuspension(let command):
            if isTravelling {
                world.outcome = "threw travelling"
                return
            }
            dispatchNow(.op(command))
        case .batch(let commands, let store, let tag, let aborts):
            if isTravelling {
                world.outcome = "threw travelling"
                return
            }
            dispatchNow(.batch(commands, mutating: store, tag: tag, aborts: aborts))
        case .batchSteppingBack(let command):
            // NB: a move inside a batch is refused with an error; the closure that catches it goes on.
            if isTravelling {
                world.outcome = "threw travelling"
                return
            }
            report("batch stepBack refused")
            dispatchNow(.batch([command], mutating: nil, tag: 0, aborts: false))
        case .startTask(let plan): start(plan, as: .outside)
        case .proceed(let gate): proceed(gate)
        case .cancelTasks(let id): cancel { $0.plan.id == id }
        case .cancelAllTasks: cancel { _ in true }
        case .suspend: suspensions += 1
        case .release: release()
        case .stepBack: stepBack()
        case .stepForward: stepForward()
        case .returnToPresent: if isTravelling { move(to: newest) }
        case .resumeDiscardingLaterSteps: resume()
        case .armObserver(let store, let reaction): observerArms[store, default: []].append(reaction)
        case .armMiddleware(let reaction): middlewareArms.append(reaction)
        case .flush: flush()
        case .attachSecondJournal: world.outcome = "threw refused"
        case .shutdown(let command): shutDown(inFlight: command)
        }
        wakeDrainers()
        world.running = tasks.values.filter { !$0.isChild && $0.phase != .ended }.count
        world.records = steps.map(\.text)
    }

    /// Runs an action from outside now, then everything it queued; its error is the operation's.
    mutating func dispatchNow(_ action: StepAction) {
        if let error = runStep(action, cause: "outside") { world.outcome = "threw \(error)" }
        drainQueue()
    }

    mutating func release() {
        guard suspensions > 0 else { return }
        suspensions -= 1
        guard suspensions == 0 else { return }
        // NB: while the past is shown, tasks' dispatches that waited are held, before those held since.
        if isTravelling {
            let waited = waiting.compactMap { if case .task(let dispatch) = $0 { dispatch } else { nil } }
            held = waited + held
            waiting.removeAll { if case .task = $0 { true } else { false } }
        }
        queue.append(contentsOf: waiting.map(Queued.released))
        waiting = []
        drainQueue()
    }

    mutating func flush() {
        for store in unsaved.sorted() { archive[store == 0 ? "A" : "B"] = present[store] }
        unsaved = []
        world.archive = archive
    }

    mutating func report(_ line: String) {
        world.reports.append(line)
    }

    /// What the replays of the journal at the end of the program should say (see `RealRun.replayOutcome`).
    ///
    /// A replay matches when no replayed step ran the diverging handler, and none changed store 3, whose
    /// state is not `Codable`, so cannot be compared. The file replays the steps a resume dropped too. The
    /// replay ends with the present's states, but for store 3, which no recorded state sets: it holds
    /// what the handlers of the steps that replay (all but a batch with a mutation; a step whose action
    /// carries an error of a type registered for replay, as `ModelFailure` is, replays with it, so its
    /// handlers append `-tag` again) appended to it.
    func replayOutcome(divergence: Int?) -> [String] {
        let file = (steps + droppedSteps).sorted { $0.id < $1.id }
        return [("memory", steps), ("file", file)].map { source, steps in
            let matches =
                !steps.contains { $0.changed.contains(3) }
                && (divergence.map { store in !steps.contains { $0.handled.contains(store) } } ?? true)
            var states = present
            states[3] = steps.filter { $0.handled.contains(3) }.flatMap { $0.added[3] }
            let unfinished = steps.flatMap(\.effects).filter { $0.outcome == nil }.count
            return "\(source): matched \(matches), states \(divergence == nil ? "\(states)" : "-"), "
                + "unfinished \(unfinished), started 0"
        }
    }
}

/// A step of the model's journal.
struct ModelStep {
    /// Unique in a program: a sequence number comes back after `resumeDiscardingLaterSteps()`.
    var id: Int
    var sequence: Int
    var name: String
    var cause: String
    var changed: [Int]
    var effects: [(name: String, outcome: String?)] = []
    /// The states after it.
    var states: [[Int]]
    /// The stores whose handler appended to their state in it.
    var handled: Set<Int>
    /// What it appended to each store's state.
    var added: [[Int]]

    var text: String {
        RecordText.line(
            sequence: sequence, name: name, cause: cause, stores: changed.map { ModelHandler.storeNames[$0] },
            effects: effects.map { "\($0.name): \($0.outcome ?? "running")" })
    }
}

/// What the model runs as one step.
enum StepAction {
    case op(Command)
    case batch([Command], mutating: Int?, tag: Int, aborts: Bool)
}

/// An action waiting for a suspension's release.
enum Waiting {
    case outside(Command)
    case task(TaskDispatch)
}

/// A dispatch a task made that did not run at once: which command, and by which task (its gate).
struct TaskDispatch {
    var command: Command
    var gate: Int
}

/// Work queued to run after the current step.
enum Queued {
    case step(Command, cause: String)
    /// A task a step started (an effect, or `dispatchTask` from its observers or middleware).
    case start(TaskPlan, step: Int)
    /// An action that waited for the last suspension's release.
    case released(Waiting)
    /// A step's `effects.cancel(id:)`: the tasks under the id are cancelled when its turn comes.
    case cancel(String, step: Int)
}
