// Steps: an action, or a batch, through the handlers, committed whole or not at all; then its
// observers, then what it queued and the tasks it started, first in, first out.
extension ReferenceModel {
    /// Runs one step; returns its error (nothing of it is kept then), or `nil` once it committed.
    mutating func runStep(_ action: StepAction, cause: String) -> String? {
        let sequence = nextSequence
        var staged = present
        var deferred: [Queued] = []
        let name: String
        let replay: StepReplay
        switch action {
        case .op(let command):
            name = "model.op"
            replay = .commands([command], isBatch: false)
            if let error = handle(command, in: &staged, deferring: &deferred, step: sequence) { return error }
        case .batch(let items, let aborts):
            name = "Fluxion.batch"
            var commands: [Command] = []
            var mutates = false
            for item in items {
                switch item {
                case .dispatch(let command):
                    commands.append(command)
                    if let error = handle(command, in: &staged, deferring: &deferred, step: sequence) {
                        return error
                    }
                    if let error = passMiddleware(deferring: &deferred, step: sequence) { return error }
                case .mutate(let store, let edit, let tag):
                    guard registered.contains(store) else { return "fluxion" }
                    // NB: a computed store is derived, never set: its mutation is refused before anything is staged.
                    if Derivation.isComputed(store) { return "fluxion" }
                    edit.apply(to: &staged[store], value: tag)
                    mutates = true  // NB: a mutation does not replay: a replay sets the step's recorded states
                }
            }
            replay = mutates ? .setsStates : .commands(commands, isBatch: true)
            if aborts { return "Aborted" }
        case .poke(let poke):
            name = "model.poke"
            replay = .poke(poke)
            poke.edit.apply(to: &staged[7], value: poke.tag)
        }
        commit(staged, name: name, cause: cause, replay: replay, deferring: deferred)
        if case .op = action {
            // NB: a middleware's code after `next` runs once the step has committed and its observers heard it.
            var late: [Queued] = []
            let failure = passMiddleware(deferring: &late, step: sequence)
            queue.append(contentsOf: late)
            return failure
        }
        return nil
    }

    /// Runs the handlers of every registered store for `command`, in their order, on the staged states.
    private mutating func handle(
        _ command: Command, in staged: inout [[Int]], deferring deferred: inout [Queued], step: Int
    ) -> String? {
        let order = ModelHandler.order(command, registered: registered)
        let touched = order.filter(command.touches.contains)
        for store in order {
            // NB: `waitFor` of a store type not registered throws a `FluxionError` naming it.
            if store == 0, command.waits, !registered.contains(2) { return "fluxion" }
            if command.throwsIn == store { return "Rejected(\(command.tag))" }
            if command.readsIn == store { read(by: "\(ModelHandler.storeNames[store])'s handler", staged) }
            guard command.touches.contains(store) else { continue }
            // NB: an action that carries its command's error reaches the failure handler, which appends -tag.
            command.edit.apply(to: &staged[store], value: command.carriesError ? -command.tag : command.tag)
            if touched.first == store {
                for follow in command.then {
                    switch follow {
                    case .dispatch(let next): deferred.append(.step(next, cause: "queued by #\(step)"))
                    case .effect(let plan): deferred.append(.start(plan, step: step))
                    case .cancel(let id): deferred.append(.cancel(id, step: step))
                    case .cancelFromAnotherThread(let id): cancelDuringStep(id, deferred: deferred)
                    }
                }
            }
            if command.reusesEffects, touched.count > 1, touched.last == store { report("task refused late") }
        }
        return nil
    }

    /// What a `read {}` sees: inside a step, its staged states, every computed store derived from them.
    mutating func read(by reader: String, _ states: [[Int]]) {
        let derived = Derivation.derive(states, registered: registered)
        let shown = (0..<ModelStoreSet.count).map { registered.contains($0) ? derived[$0] : [-1] }
        world.reads.append("\(reader) read \(shown)")
    }

    /// What the program's middleware does after `next` returned for an `op`: its error, if it throws.
    private mutating func passMiddleware(deferring deferred: inout [Queued], step: Int) -> String? {
        guard !middlewareArms.isEmpty else { return nil }
        switch middlewareArms.removeFirst() {
        case .throwAfterNext: return "middlewareFailed"
        case .startTask(let plan):
            deferred.append(.start(plan, step: step))
            return nil
        }
    }

    /// Derives the computed stores from `staged`, makes it the present, journals the step, queues what it
    /// deferred, and tells each changed store's observer (in registration order), which reacts as armed.
    private mutating func commit(
        _ staged: [[Int]], name: String, cause: String, replay: StepReplay, deferring deferred: [Queued]
    ) {
        // NB: every computed store is derived once, from its sources' staged states, before its observers hear it;
        // a state left equal (an `Equatable` one) is no change.
        let staged = Derivation.derive(staged, registered: registered)
        let changed = registered.filter { staged[$0] != present[$0] }
        let old = present
        present = staged
        world.states = staged
        unsaved.formUnion(changed.filter { $0 < 2 })
        let sequence = nextSequence
        nextSequence += 1
        let id = steps.count + droppedSteps.count
        let changes = changed.map {
            ModelChange(store: $0, generation: generations[$0], old: old[$0], new: staged[$0])
        }
        steps.append(
            ModelStep(id: id, sequence: sequence, name: name, cause: cause, changes: changes, replay: replay))
        fileLines.append(.step(id))
        queue.append(contentsOf: deferred)
        for store in changed {
            world.observed.append("\(ModelHandler.storeNames[store]) \(old[store]) → \(staged[store]) by \(name)")
            if let reaction = takeObserverArm(store) { react(reaction, of: store, inStep: sequence) }
        }
    }

    /// What an armed observer does, hearing a step's change (`step`) or a time-travel move (`nil`).
    mutating func react(_ reaction: Reaction, of store: Int, inStep step: Int?) {
        switch reaction {
        case .dispatch(let command):
            // NB: a move is no step of the journal's: what its observers queue names an unrecorded one, and
            // runs after the move, refused if the past is shown then.
            queue.append(.step(command, cause: step.map { "queued by #\($0)" } ?? "queued by an unrecorded step"))
        case .startTask(let plan):
            queue.append(.start(plan, step: step ?? 0))
        case .stepBack: report("observer stepBack refused")
        case .cancelTasks(let id):
            cancel { $0.plan.id == id }
        case .read: read(by: "the observer of \(ModelHandler.storeNames[store])", world.states)
        }
    }

    mutating func takeObserverArm(_ store: Int) -> Reaction? {
        guard var arms = observerArms[store], !arms.isEmpty else { return nil }
        defer { observerArms[store] = arms }
        return arms.removeFirst()
    }

    /// Runs what the steps queued, first in, first out, until nothing is left.
    mutating func drainQueue() {
        while !queue.isEmpty {
            switch queue.removeFirst() {
            case .step(let command, let cause):
                if isTravelling {
                    report("queued model.op travelling")
                } else if let error = runStep(.op(command), cause: cause) {
                    report("queued model.op \(error)")
                }
            case .start(let plan, let step):
                start(plan, as: .effect(step: step))
            case .cancel(let id, let step):
                // NB: in its place: the tasks under `id` running now, not the starts queued behind it.
                if let index = steps.firstIndex(where: { $0.sequence == step }) {
                    steps[index].effects.append((name: "cancel \(id)", outcome: "finished"))
                }
                cancel(queuedStarts: false) { $0.plan.id == id }
            case .released(.outside(let command)):
                if isTravelling {
                    report("queued model.op travelling")
                } else if let error = runStep(.op(command), cause: "outside") {
                    report("queued model.op \(error)")
                }
            case .released(.task(let dispatch)):
                deliver(dispatch)
            }
        }
        beginAwaiting()
    }
}
