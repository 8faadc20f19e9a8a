// Steps: an action, or a batch, through the handlers, committed whole or not at all; then its
// observers, then what it queued and the tasks it started, first in, first out.
extension ReferenceModel {
    /// Runs one step; returns its error (nothing of it is kept then), or `nil` once it committed.
    mutating func runStep(_ action: StepAction, cause: String) -> String? {
        let sequence = nextSequence
        var staged = present
        var deferred: [Queued] = []
        var handled: Set<Int> = []
        var failure: String?
        let name: String
        switch action {
        case .op(let command):
            name = "model.op"
            if let error = handle(command, in: &staged, deferring: &deferred, handled: &handled, step: sequence) {
                return error
            }
        case .batch(let commands, let store, let tag, let aborts):
            name = "Fluxion.batch"
            for command in commands {
                if let error = handle(command, in: &staged, deferring: &deferred, handled: &handled, step: sequence) {
                    return error
                }
                if let error = passMiddleware(deferring: &deferred, step: sequence) { return error }
            }
            if let store {
                staged[store].append(tag)
                handled = []  // NB: a mutation does not replay: a replay sets the step's recorded states
            }
            if aborts { return "Aborted" }
        }
        commit(staged, name: name, cause: cause, handled: handled, deferring: deferred)
        if case .op = action {
            // NB: a middleware's code after `next` runs once the step has committed and its observers heard it.
            var late: [Queued] = []
            failure = passMiddleware(deferring: &late, step: sequence)
            queue.append(contentsOf: late)
        }
        return failure
    }

    /// Runs the handlers of every store for `command`, in their order, on the staged states.
    private mutating func handle(
        _ command: Command, in staged: inout [[Int]], deferring deferred: inout [Queued], handled: inout Set<Int>,
        step: Int
    ) -> String? {
        let order = ModelHandler.order(command)
        let touched = order.filter(command.touches.contains)
        for store in order {
            if command.throwsIn == store { return "Rejected(\(command.tag))" }
            guard command.touches.contains(store) else { continue }
            // NB: an action that carries its command's error reaches the failure handler, which appends -tag.
            staged[store].append(command.carriesError ? -command.tag : command.tag)
            handled.insert(store)
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

    /// Makes `staged` the present, journals the step, queues what it deferred, and tells each changed
    /// store's observer, which reacts as armed.
    private mutating func commit(
        _ staged: [[Int]], name: String, cause: String, handled: Set<Int>, deferring deferred: [Queued]
    ) {
        var staged = staged
        // NB: store E is computed from A and B inside the step, before its observers hear it.
        staged[4] = staged[0] + staged[1]
        let changed = (0..<5).filter { staged[$0] != present[$0] }
        let old = present
        present = staged
        world.states = staged
        unsaved.formUnion(changed.filter { $0 < 2 })
        let sequence = nextSequence
        nextSequence += 1
        steps.append(
            ModelStep(
                id: steps.count + droppedSteps.count, sequence: sequence, name: name, cause: cause, changed: changed,
                states: staged, handled: handled,
                added: (0..<5).map { Array(staged[$0].dropFirst(old[$0].count)) }))
        queue.append(contentsOf: deferred)
        for store in changed {
            world.observed.append("\(ModelHandler.storeNames[store]) \(old[store]) → \(staged[store]) by \(name)")
            if let reaction = takeObserverArm(store) { react(reaction, inStep: sequence) }
        }
    }

    /// What an armed observer does, hearing a step's change (`step`) or a time-travel move (`nil`).
    mutating func react(_ reaction: Reaction, inStep step: Int?) {
        switch reaction {
        case .dispatch(let command):
            // NB: a move is no step of the journal's: what its observers queue names an unrecorded one, and
            // runs after the move, refused if the past is shown then.
            queue.append(.step(command, cause: step.map { "queued by #\($0)" } ?? "queued by an unrecorded step"))
        case .startTask(let plan):
            queue.append(.start(plan, step: step ?? 0))
        case .stepBack: report("observer stepBack refused")
        case .cancelTasks(let id): cancel { $0.plan.id == id }
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
