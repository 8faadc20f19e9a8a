import Fluxion
import Foundation

// The tasks of a program: each waits at its gate until the program opens it, then dispatches.
extension ProgramContext {
    /// Starts `plan` as a tracked task with `dispatchTask`, from wherever the caller runs.
    func startTask(_ plan: TaskPlan, on dispatcher: Dispatcher) {
        let work: @Sendable (Dispatcher) async throws -> Void = { [self] in try await self.work(plan, $0) }
        if let id = plan.id {
            dispatcher.dispatchTask(id: id, cancelInFlight: plan.cancelInFlight, work)
        } else {
            dispatcher.dispatchTask(work)
        }
    }

    /// Asks `effects` for `plan` as an effect.
    func ask(_ effects: Effects, for plan: TaskPlan) {
        effects.run(id: plan.id ?? "", cancelInFlight: plan.cancelInFlight) { [self] in
            try await self.work(plan, $0)
        }
    }

    /// The work of a tracked task: start its child, wait at its gate, dispatch, and linger if asked.
    func work(_ plan: TaskPlan, _ dispatcher: Dispatcher) async throws {
        log(plan.gate, "began")
        if let child = plan.child { startChild(child, on: dispatcher) }
        try await park(plan.gate, tracked: true)
        if plan.drains { await drain(plan.gate, tracked: true, on: dispatcher) }
        guard let command = plan.dispatches else { return log(plan.gate, "done") }
        try dispatchLogging(command, gate: plan.gate, on: dispatcher)
        if plan.lingers { try await park(-plan.gate, tracked: true) }
    }

    /// Awaits `waitUntilDrained()` from the task at `gate`, tracked or plain.
    private func drain(_ gate: Int, tracked: Bool, on dispatcher: Dispatcher) async {
        log(gate, "draining")
        // NB: the task counts as waiting once it waits inside the cancellation handler, and stops at its
        // cancellation (which ends its wait at once) or its return: a settle then waits for what it does next.
        let phase = Locked(DrainPhase.before)
        let leave: @Sendable () -> Void = { [seen] in
            seen.withLock { seen in
                phase.withLock { phase in
                    if phase == .waiting {
                        seen.draining -= 1
                        if !tracked { seen.drainingPlain -= 1 }
                    }
                    phase = .left
                }
            }
        }
        await withTaskCancellationHandler {
            seen.withLock { seen in
                phase.withLock { phase in
                    guard phase == .before else { return }
                    phase = .waiting
                    seen.draining += 1
                    if !tracked { seen.drainingPlain += 1 }
                }
            }
            await dispatcher.waitUntilDrained()
        } onCancel: {
            leave()
        }
        leave()
        log(gate, "drained")
    }

    private func dispatchLogging(_ command: Command, gate: Int, on dispatcher: Dispatcher) throws {
        do {
            try dispatcher.dispatch(.op, payload: command, error: command.error)
            log(gate, "returned")
        } catch {
            log(gate, Self.describe(error))
            throw error
        }
    }

    /// A plain `Task` started inside a tracked one: it inherits the task's locals, not its tracking.
    private func startChild(_ child: ChildPlan, on dispatcher: Dispatcher) {
        seen.withLock { $0.plainRunning += 1 }
        Task { [self] in
            defer { seen.withLock { $0.plainRunning -= 1 } }
            log(child.gate, "began")
            do {
                try await park(child.gate, tracked: false)
                if child.drains { await drain(child.gate, tracked: false, on: dispatcher) }
                try dispatchLogging(child.dispatches, gate: child.gate, on: dispatcher)
            } catch {}
        }
    }

    /// Waits until the program opens `gate`; throws `CancellationError` if the task is cancelled first.
    func park(_ gate: Int, tracked: Bool) async throws {
        do { try await waitAtGate(gate, tracked: tracked) } catch {
            log(gate, "cancelled")
            throw error
        }
    }

    private func waitAtGate(_ gate: Int, tracked: Bool) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                seen.withLock { seen in
                    if seen.opened.contains(gate) { return continuation.resume() }
                    if seen.closed || seen.cancelledGates.contains(gate) {
                        return continuation.resume(throwing: CancellationError())
                    }
                    seen.waiting[gate] = (continuation, tracked)
                }
            }
        } onCancel: {
            seen.withLock { seen in
                guard let (continuation, _) = seen.waiting.removeValue(forKey: gate) else {
                    _ = seen.cancelledGates.insert(gate)
                    return
                }
                continuation.resume(throwing: CancellationError())
            }
        }
    }

    /// Opens `gate`: the task waiting there (or the next to arrive) goes on.
    func open(_ gate: Int) {
        seen.withLock { seen in
            seen.opened.insert(gate)
            seen.waiting.removeValue(forKey: gate)?.0.resume()
        }
    }

    /// Blocks until every task of `dispatcher` and every plain task waits at a gate or has ended, `drainers`
    /// of them awaiting the drain.
    ///
    /// Settled is decided from what the tasks signal: each start, arrival at a gate, wait for the drain and end
    /// changes `seen` under its lock and wakes this wait, which checks again under that lock. No time passing
    /// decides it: the ``HangGuard`` only ends a wait that a hang would make endless.
    ///
    /// - Returns: `nil` once settled; after the hang guard, a line that says they hung and what each did.
    func settle(_ dispatcher: Dispatcher, drainers: Int = 0) -> String? {
        let settled = seen.wait(
            until: { seen in
                seen.live == seen.parkedTracked + seen.draining - seen.drainingPlain && seen.draining == drainers
                    && seen.plainRunning == seen.parkedPlain + seen.drainingPlain
            }, timeout: HangGuard.seconds)
        if settled { return nil }
        return seen.withLockUnchanged { seen in
            let logs = seen.taskLog.keys.sorted().map { "\($0): \(seen.taskLog[$0] ?? [])" }
            return "hung: the tasks did not settle within \(Int(HangGuard.seconds)) s: "
                + "\(seen.live) tracked running (\(seen.parkedTracked) at a gate, \(seen.draining) of \(drainers) "
                + "awaiting the drain), \(seen.plainRunning) plain running (\(seen.parkedPlain) at a gate); "
                + "at gates \(seen.waiting.keys.sorted()); the dispatcher counts \(dispatcher.runningTaskCount) "
                + "running; what each did: \(logs.joined(separator: "; "))"
        }
    }
}

/// Starts the tracked tasks of a program's dispatcher, and counts them until each has ended, the
/// dispatcher's bookkeeping of its end included: what a settle waits for.
final class LiveTaskCounter: TaskStarter {
    let seen: Monitor<ProgramContext.Seen>

    init(seen: Monitor<ProgramContext.Seen>) {
        self.seen = seen
    }

    func start<Value: Sendable>(
        priority: TaskPriority?, _ operation: @escaping @Sendable () async throws -> Value
    ) -> Task<Value, any Error> {
        seen.withLock { $0.live += 1 }
        let counted: @Sendable () async throws -> Value = { [seen] in
            defer { seen.withLock { $0.live -= 1 } }
            return try await operation()
        }
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            return OwnThreadsTaskStarter().start(priority: priority, counted)
        }
        return Task(priority: priority, operation: counted)
    }
}

/// Where a task awaiting the drain is: not waiting yet, waiting, or gone on.
private enum DrainPhase {
    case before
    case waiting
    case left
}
