// What an operation holds, read by the switches of `OpenDefects`.
extension Operation {
    /// Every command in it, those its effects, tasks and reactions dispatch included.
    var commands: [Command] {
        var commands: [Command] = []
        var plans: [TaskPlan] = []
        collect(into: &commands, &plans)
        return commands
    }

    /// Every task plan in it, effects included; a task it starts from outside comes first.
    var plans: [TaskPlan] {
        var commands: [Command] = []
        var plans: [TaskPlan] = []
        collect(into: &commands, &plans)
        return plans
    }

    private func collect(into commands: inout [Command], _ plans: inout [TaskPlan]) {
        switch self {
        case .dispatch(let command), .dispatchBypassingSuspension(let command), .batchSteppingBack(let command),
            .armObserver(_, .dispatch(let command)), .shutdown(let command):
            Self.collect(command, into: &commands, &plans)
        case .batch(let batch, _, _, _): for command in batch { Self.collect(command, into: &commands, &plans) }
        case .batchOf(let items, _):
            for case .dispatch(let command) in items { Self.collect(command, into: &commands, &plans) }
        case .startTask(let plan), .armObserver(_, .startTask(let plan)), .armMiddleware(.startTask(let plan)):
            Self.collect(plan, into: &commands, &plans)
        default: break
        }
    }

    private static func collect(_ command: Command, into commands: inout [Command], _ plans: inout [TaskPlan]) {
        commands.append(command)
        for follow in command.then {
            switch follow {
            case .dispatch(let next): collect(next, into: &commands, &plans)
            case .effect(let plan): collect(plan, into: &commands, &plans)
            case .cancel, .cancelFromAnotherThread: break
            }
        }
    }

    private static func collect(_ plan: TaskPlan, into commands: inout [Command], _ plans: inout [TaskPlan]) {
        plans.append(plan)
        if let command = plan.dispatches { collect(command, into: &commands, &plans) }
        if let child = plan.child { collect(child.dispatches, into: &commands, &plans) }
    }

    var isMove: Bool {
        if case .travel = self { return true }
        return [.stepBack, .stepForward, .returnToPresent].contains(self)
    }

    var isShutdown: Bool {
        if case .shutdown = self { true } else { false }
    }

    var isBatchSteppingBack: Bool {
        if case .batchSteppingBack = self { true } else { false }
    }

    var startsTaskFromOutside: Bool {
        if case .startTask = self { true } else { false }
    }

    var armsObserverCancelling: Bool {
        if case .armObserver(_, .cancelTasks) = self { true } else { false }
    }

    var armsObserverStartingTask: Bool {
        if case .armObserver(_, .startTask) = self { true } else { false }
    }
}
