/// What the docs promise, as a plain single-threaded program: given the same operations as a real
/// dispatcher, it predicts the whole ``World`` after each.
///
/// Nothing here is shared with Fluxion's code: it is written from the docs' sentences (the DocC
/// articles "Working with Effects", "Suspending and Batching", "Recording, Replaying and Time Travel",
/// "Middleware and Async Work", "Designing Stores"), and is meant to be read beside them.
struct ReferenceModel {
    /// What is seen; `world.states` are the states the stores show (the past while travelling), `[-1]` for
    /// a store type not registered.
    var world = World()
    /// The states after the newest step, or the last registration: the present, whatever the stores show.
    var present: [[Int]] = Array(repeating: [], count: ModelStoreSet.count)
    /// The registered stores, in registration order: a store registered again comes last.
    var registered = Array(0..<ModelStoreSet.count)
    /// How many times each store was registered again: a store of a new generation is a new store.
    var generations = Array(repeating: 0, count: ModelStoreSet.count)
    /// The last state of each store that was unregistered, by its store and generation.
    var orphans: [StoreInstance: [Int]] = [:]
    /// The journal file's lines, in order: the steps (by id) and the resumes.
    var fileLines: [FileLine] = []
    /// What the last operation met that an open defect's switch may avoid (see `OpenDefects`).
    var situations: Set<Situation> = []
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

    var isTravelling: Bool { position != nil }

    /// The sequence number of the newest step (0 for none).
    var newest: Int { nextSequence - 1 }

    /// Applies `operation`; `world.outcome` says what it returned or threw.
    mutating func apply(_ operation: Operation) {
        situations = []
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
            let mutation = store.map { [BatchItem.mutate(store: $0, .append, tag: tag)] } ?? []
            dispatchNow(.batch(commands.map(BatchItem.dispatch) + mutation, aborts: aborts))
        case .batchOf(let items, let aborts):
            if isTravelling {
                world.outcome = "threw travelling"
                return
            }
            dispatchNow(.batch(items, aborts: aborts))
        case .batchSteppingBack(let command):
            // NB: a move inside a batch is refused with an error; the closure that catches it goes on.
            if isTravelling {
                world.outcome = "threw travelling"
                return
            }
            report("batch stepBack refused")
            dispatchNow(.batch([.dispatch(command)], aborts: false))
        case .startTask(let plan): start(plan, as: .outside)
        case .proceed(let gate): proceed(gate)
        case .cancelTasks(let id): cancel { $0.plan.id == id }
        case .cancelAllTasks: cancel { _ in true }
        case .suspend: suspensions += 1
        case .release: release()
        case .stepBack: stepBack()
        case .stepForward: stepForward()
        case .travel(let step): travel(to: step)
        case .returnToPresent: if isTravelling { move(to: newest) }
        case .resumeDiscardingLaterSteps: resume()
        case .armObserver(let store, let reaction): observerArms[store, default: []].append(reaction)
        case .armMiddleware(let reaction): middlewareArms.append(reaction)
        case .flush: flush()
        case .attachSecondJournal: world.outcome = "threw refused"
        // NB: one live dispatcher at a time persists to a storage ("Persisting State").
        case .openSecondDispatcher: world.outcome = "threw locationInUse"
        case .poke(let poke):
            if isTravelling {
                world.outcome = "threw travelling"
                return
            }
            dispatchNow(.poke(poke))
        case .unregister(let store): unregister(store)
        case .register(let store): register(store)
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
