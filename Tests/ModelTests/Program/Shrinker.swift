/// Makes a failing program smaller while it still fails: fewer operations, then simpler commands.
enum Shrinker {
    static func shrink(
        _ program: Program, _ failure: ModelCheck.Failure, avoiding: OpenDefects, budget: Int = 400
    ) -> (Program, ModelCheck.Failure) {
        // NB: a hang is reported as found: each try of a program that hangs waits for the whole hang guard.
        guard !failure.isHang else { return (program, failure) }
        var best = program
        var bestFailure = failure
        var tries = 0
        func attempt(_ candidate: Program) -> Bool {
            guard tries < budget, avoiding.permits(candidate) else { return false }
            tries += 1
            guard let failure = ModelCheck.run(candidate) else { return false }
            best = candidate
            bestFailure = failure
            return true
        }
        // Nothing after the failing operation matters (unless the replay at the end failed).
        if failure.index < best.operations.count - 1 {
            var cut = best
            cut.operations = Array(best.operations.prefix(failure.index + 1))
            _ = attempt(cut)
        }
        if best.divergence != nil {
            var plain = best
            plain.divergence = nil
            _ = attempt(plain)
        }
        var changed = true
        while changed, tries < budget {
            changed = false
            var chunk = max(best.operations.count / 2, 1)
            while chunk >= 1 {
                var start = 0
                while start < best.operations.count {
                    var candidate = best
                    candidate.operations.removeSubrange(start..<min(start + chunk, best.operations.count))
                    if attempt(candidate) { changed = true } else { start += chunk }
                }
                chunk /= 2
            }
            for index in best.operations.indices.reversed() where index < best.operations.count {
                for simpler in simplifications(of: best.operations[index]) {
                    var candidate = best
                    candidate.operations[index] = simpler
                    if attempt(candidate) {
                        changed = true
                        break
                    }
                }
            }
        }
        return (best, bestFailure)
    }

    /// Simpler forms of an operation: commands with less in them.
    private static func simplifications(of operation: Operation) -> [Operation] {
        switch operation {
        case .dispatch(let command): simpler(command).map(Operation.dispatch)
        case .dispatchBypassingSuspension(let command): simpler(command).map(Operation.dispatchBypassingSuspension)
        case .startTask(let plan): simpler(plan).map(Operation.startTask)
        case .shutdown(let command): simpler(command).map { Operation.shutdown(inFlight: $0) }
        case .batch(let commands, let store, let tag, let aborts):
            (commands.count == 1 && store == nil && !aborts ? [Operation.dispatch(commands[0])] : [])
                + (store != nil ? [Operation.batch(commands, aborts: aborts)] : [])
                + commands.indices.flatMap { index in
                    simpler(commands[index]).map { simpler in
                        var commands = commands
                        commands[index] = simpler
                        return Operation.batch(commands, mutating: store, mutationTag: tag, aborts: aborts)
                    }
                }
        case .batchOf(let items, let aborts): simpler(items, aborts: aborts)
        case .poke(let poke): simpler(poke)
        default: []
        }
    }

    static func simpler(_ command: Command) -> [Command] {
        var results: [Command] = []
        for index in command.then.indices {
            var fewer = command
            fewer.then.remove(at: index)
            results.append(fewer)
            if case .effect(let plan) = command.then[index] {
                for plan in simpler(plan) {
                    var inner = command
                    inner.then[index] = .effect(plan)
                    results.append(inner)
                }
            }
        }
        for index in command.touches.indices {
            var fewer = command
            fewer.touches.remove(at: index)
            results.append(fewer)
        }
        if command.waits { results.append(with(command) { $0.waits = false }) }
        if command.edit != .append { results.append(with(command) { $0.edit = .append }) }
        if command.readsIn != nil { results.append(with(command) { $0.readsIn = nil }) }
        if command.reusesEffects { results.append(with(command) { $0.reusesEffects = false }) }
        if command.carriesError { results.append(with(command) { $0.carriesError = false }) }
        return results
    }

    private static func simpler(_ plan: TaskPlan) -> [TaskPlan] {
        var results: [TaskPlan] = []
        if plan.child != nil { results.append(with(plan) { $0.child = nil }) }
        if plan.child?.drains == true { results.append(with(plan) { $0.child?.drains = false }) }
        if plan.lingers { results.append(with(plan) { $0.lingers = false }) }
        if plan.cancelInFlight { results.append(with(plan) { $0.cancelInFlight = false }) }
        if let command = plan.dispatches {
            results += simpler(command).map { simpler in with(plan) { $0.dispatches = simpler } }
        }
        return results
    }

    private static func with<Value>(_ value: Value, _ change: (inout Value) -> Void) -> Value {
        var value = value
        change(&value)
        return value
    }
}
