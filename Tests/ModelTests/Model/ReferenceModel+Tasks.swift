// Tasks: each starts, waits at its gate, dispatches when the program opens it, and ends. Cancellation
// is a fact about a task: it outlives the task, reaches its held and waiting dispatches, and its children.
extension ReferenceModel {
    /// Starts `plan` as a tracked task; an effect is listed on its step's record.
    mutating func start(_ plan: TaskPlan, as origin: ModelTask.Origin) {
        if let id = plan.id, plan.cancelInFlight {
            cancel(queuedStarts: false) { $0.plan.id == id }
        }
        var task = ModelTask(plan: plan, origin: origin)
        if case .effect(let step) = origin, let index = steps.firstIndex(where: { $0.sequence == step }) {
            task.effectIndex = steps[index].effects.count
            task.recordID = steps[index].id
            steps[index].effects.append((name: plan.id ?? "#\(task.effectIndex + 1)", outcome: nil))
        }
        tasks[plan.gate] = task
        if cancelledBeforeStart.remove(plan.gate) != nil || isShutDown {
            tasks[plan.gate]?.isCancelled = true
            return end(plan.gate, "cancelled")
        }
        // NB: a step's task begins its work once nothing is queued: the turn's end.
        guard case .outside = origin else {
            tasks[plan.gate]?.phase = .awaiting
            return awaiting.append(plan.gate)
        }
        begin(plan.gate)
    }

    /// Begins the work of the task at `gate`: it starts its child, and waits at its gate.
    mutating func begin(_ gate: Int) {
        guard let plan = tasks[gate]?.plan else { return }
        tasks[gate]?.phase = .parked
        log(plan.gate, "began")
        if let child = plan.child {
            tasks[child.gate] = ModelTask(
                plan: TaskPlan(id: plan.id, gate: child.gate, dispatches: child.dispatches, drains: child.drains),
                origin: .child(plan.gate))
            log(child.gate, "began")
            if opened.contains(child.gate) { proceed(child.gate) }
        }
        if opened.contains(plan.gate) { proceed(plan.gate) }
    }

    /// Opens `gate`: the task waiting there dispatches (or, at `-gate`, a lingering task ends).
    mutating func proceed(_ gate: Int) {
        opened.insert(gate)
        if gate < 0 {
            if tasks[-gate]?.phase == .lingering { end(-gate, "finished") }
            return
        }
        guard let task = tasks[gate], task.phase == .parked else { return }
        if task.plan.drains {
            log(gate, "draining")
            tasks[gate]?.phase = .draining
            return wakeDrainers()
        }
        finish(gate)
    }

    /// Wakes a task awaiting `waitUntilDrained()` once no other task runs and no action waits. A plain child
    /// task does not wait for the tracked task it was started in, while that one runs; it is not tracked itself.
    mutating func wakeDrainers() {
        guard let gate = tasks.first(where: { $0.value.phase == .draining })?.key else { return }
        let parent: Int? = if case .child(let parent) = tasks[gate]?.origin { parent } else { nil }
        guard
            !tasks.contains(where: {
                $0.key != gate && $0.key != parent && !$0.value.isChild && $0.value.phase != .ended
            }),
            waiting.isEmpty
        else { return }
        log(gate, "drained")
        finish(gate)
    }

    /// What the task at `gate` does once its gate opened (and the drain it awaited, if any, ended).
    mutating func finish(_ gate: Int) {
        guard let task = tasks[gate] else { return }
        guard let command = task.plan.dispatches else {
            log(gate, "done")
            return end(gate, "finished")
        }
        tasks[gate]?.phase = .dispatching
        let error = dispatch(command, byTaskAt: gate)
        log(gate, error ?? "returned")
        switch error {
        case nil where task.plan.lingers && !task.isChild && isCancelled(gate):
            log(-gate, "cancelled")
            end(gate, "cancelled")
        case nil where task.plan.lingers && !task.isChild:
            tasks[gate]?.phase = .lingering
            if opened.contains(-gate) { end(-gate, "finished") }
        case nil: end(gate, "finished")
        case "cancelled": end(gate, "cancelled")
        case let error?:
            if !task.isChild { report("task threw \(task.plan.id ?? "nil")") }
            end(gate, "failed: \(error)")
        }
    }

    /// A task's dispatch: refused if the task (or the task it was started in) was cancelled, or once
    /// shutdown has begun; waiting while suspended, held while the past is shown, else run now.
    ///
    /// - Returns: The error the task's `dispatch` throws, if any.
    private mutating func dispatch(_ command: Command, byTaskAt gate: Int) -> String? {
        if isCancelled(gate) {
            report("task refused \(idOfTask(at: gate))")
            return "cancelled"
        }
        // NB: "from its first moment, a dispatch or a batch from outside the running turn throws" (`shutdown()`):
        // a plain task's, whose own task ended uncancelled, once the shutdown's cancellations ended its drain.
        if isShutDown { return "shutDown" }
        if isTravelling {
            held.append(TaskDispatch(command: command, gate: gate))
            return nil
        }
        if suspensions > 0 {
            waiting.append(.task(TaskDispatch(command: command, gate: gate)))
            return nil
        }
        let error = runStep(.op(command), cause: cause(ofTaskAt: gate))
        drainQueue()
        return error
    }

    /// Delivers a dispatch that was held or waiting, as its task would have made it now.
    mutating func deliver(_ dispatch: TaskDispatch) {
        if isTravelling { return held.append(dispatch) }
        if suspensions > 0 { return waiting.append(.task(dispatch)) }
        // NB: refused when it would run: its task may have been cancelled while it was held or waited.
        if isCancelled(dispatch.gate) { return report("task refused \(idOfTask(at: dispatch.gate))") }
        if let error = runStep(.op(dispatch.command), cause: cause(ofTaskAt: dispatch.gate)) {
            report("queued model.op \(error)")
        }
    }

    /// Cancels every running tracked task `matches` picks, and every queued start it picks.
    mutating func cancel(queuedStarts: Bool = true, where matches: (ModelTask) -> Bool) {
        for gate in tasks.keys.sorted() {
            guard let task = tasks[gate], !task.isChild, task.phase != .ended, matches(task) else { continue }
            tasks[gate]?.isCancelled = true
            // NB: a task whose work has not begun never runs it.
            if task.phase == .awaiting {
                awaiting.removeAll { $0 == gate }
                end(gate, "cancelled")
                continue
            }
            // NB: a dispatch already under way finishes; the task sees its cancellation afterwards.
            guard task.phase != .dispatching else { continue }
            // NB: cancelling ends a wait for the drain, as it ends a sleep: the task goes on, to be refused.
            if task.phase == .draining {
                log(gate, "drained")
                finish(gate)
                continue
            }
            log(task.phase == .lingering ? -gate : gate, "cancelled")
            end(gate, "cancelled")
        }
        for case .start(let plan, _) in queue where queuedStarts && matches(ModelTask(plan: plan, origin: .outside)) {
            cancelledBeforeStart.insert(plan.gate)
        }
        if queuedStarts { cancelEndedTasksOfWaitingDispatches(where: matches) }
    }

    private mutating func end(_ gate: Int, _ outcome: String) {
        tasks[gate]?.phase = .ended
        guard let task = tasks[gate], let id = task.recordID else { return }
        if let index = steps.firstIndex(where: { $0.id == id }) {
            steps[index].effects[task.effectIndex].outcome = outcome
        } else if let index = droppedSteps.firstIndex(where: { $0.id == id }) {
            droppedSteps[index].effects[task.effectIndex].outcome = outcome
        }
    }

    /// Whether the task at `gate`, or the tracked task a plain child was started in, was cancelled.
    func isCancelled(_ gate: Int) -> Bool {
        guard let task = tasks[gate] else { return false }
        if case .child(let parent) = task.origin { return isCancelled(parent) }
        return task.isCancelled
    }

    func idOfTask(at gate: Int) -> String {
        guard let task = tasks[gate] else { return "nil" }
        if case .child(let parent) = task.origin { return idOfTask(at: parent) }
        return task.plan.id ?? "nil"
    }

    /// The cause a journal names for a step the task at `gate` dispatched.
    func cause(ofTaskAt gate: Int) -> String {
        switch tasks[gate]?.origin {
        case .effect(let step)?:
            "effect \(tasks[gate]!.plan.id ?? "#1") of "
                + (steps.contains { $0.id == tasks[gate]?.recordID } ? "#\(step)" : "an unrecorded step")
        case .child(let parent)?: cause(ofTaskAt: parent)
        case .outside?, nil: "outside"
        }
    }

    mutating func log(_ gate: Int, _ event: String) {
        world.taskLog[gate, default: []].append(event)
    }
}

/// A task of the model.
struct ModelTask {
    enum Origin {
        /// Started with `dispatchTask` from outside any step.
        case outside
        /// Started by a step: an effect, or `dispatchTask` from its observer or middleware.
        case effect(step: Int)
        /// A plain `Task` started by the tracked task at this gate.
        case child(Int)
    }

    enum Phase {
        /// Registered by a step of the running turn; its work begins once nothing is queued.
        case awaiting
        case parked
        /// Its dispatch is under way.
        case dispatching
        /// It awaits `waitUntilDrained()`.
        case draining
        case lingering
        case ended
    }

    var plan: TaskPlan
    var origin: Origin
    var phase = Phase.parked
    var isCancelled = false
    /// Its place in its step's list of effects, and that step's record.
    var effectIndex = 0
    var recordID: Int?

    var isChild: Bool {
        if case .child = origin { true } else { false }
    }
}
