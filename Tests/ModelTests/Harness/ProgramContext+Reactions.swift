import Fluxion

// What the program's observers and middleware do when the program armed them.
extension ProgramContext {
    func arm(observerOf store: Int, _ reaction: Reaction) {
        seen.withLock { $0.observerArms[store, default: []].append(reaction) }
    }

    func arm(_ reaction: MiddlewareReaction) {
        seen.withLock { $0.middlewareArms.append(reaction) }
    }

    func takeMiddlewareArm() -> MiddlewareReaction? {
        seen.withLock { $0.middlewareArms.isEmpty ? nil : $0.middlewareArms.removeFirst() }
    }

    func report(_ line: String) {
        seen.withLock { $0.reports.append(line) }
    }

    /// What store `index`'s observer does with a change: log it, then react as armed.
    func heard(_ index: Int, old: [Int], new: [Int], action: String, on dispatcher: Dispatcher) {
        let reaction = seen.withLock { seen -> Reaction? in
            seen.observed.append("\(ModelHandler.storeNames[index]) \(old) → \(new) by \(action)")
            guard var arms = seen.observerArms[index], !arms.isEmpty else { return nil }
            defer { seen.observerArms[index] = arms }
            return arms.removeFirst()
        }
        switch reaction {
        case nil: break
        case .dispatch(let command):
            do { try dispatcher.dispatch(.op, payload: command, error: command.error) } catch {
                report("queued \(ActionName<Command>.op.rawValue) \(Self.describe(error))")
            }
        case .startTask(let plan): startTask(plan, on: dispatcher)
        case .stepBack:
            do {
                try journal?.stepBack()
                report("observer stepBack moved")
            } catch {
                report("observer stepBack refused")
            }
        case .cancelTasks(let id): dispatcher.cancelTasks(id: id)
        case .read:
            noteRead(
                by: "the observer of \(ModelHandler.storeNames[index])",
                dispatcher.read { ModelStoreSet.states(of: dispatcher) })
        }
    }

    /// Ends the program: every task waiting at a gate, or arriving at one, is cancelled.
    func close() {
        seen.withLock { seen in
            for (gate, (continuation, _)) in seen.waiting {
                seen.cancelledGates.insert(gate)
                continuation.resume(throwing: CancellationError())
            }
            seen.waiting = [:]
            seen.closed = true
        }
    }
}
