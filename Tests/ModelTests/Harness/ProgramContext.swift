import Fluxion
import Foundation

/// What one program's real dispatcher needs at run time: its gates, the reactions the program armed,
/// and what its observers, tasks and hooks saw. Handlers, effects and observers find it by their dispatcher.
final class ProgramContext: Sendable {
    /// What the program has seen so far, and the gates its tasks wait at.
    struct Seen {
        var observed: [String] = []
        /// What each `read {}` of a handler or an observer saw, in order (see ``noteRead(by:_:)``).
        var reads: [String] = []
        var reports: [String] = []
        var taskLog: [Int: [String]] = [:]
        var opened: Set<Int> = []
        var cancelledGates: Set<Int> = []
        /// The tasks waiting at a gate, and whether each is tracked.
        var waiting: [Int: (CheckedContinuation<Void, any Error>, Bool)] = [:]
        /// How many tracked tasks, and how many plain ones, wait at a gate.
        var parkedTracked: Int { waiting.values.count { $0.1 } }
        var parkedPlain: Int { waiting.values.count { !$0.1 } }
        var plainRunning = 0
        /// How many tasks await `waitUntilDrained()`, and how many of them are plain child tasks.
        var draining = 0
        var drainingPlain = 0
        /// How many tracked tasks the dispatcher started and have not ended, the dispatcher's own bookkeeping
        /// of their end (the journal's note of an effect's end) included.
        var live = 0
        var observerArms: [Int: [Reaction]] = [:]
        var middlewareArms: [MiddlewareReaction] = []
        var keptEffects: Effects?
        /// Set when the program ended: a task arriving at a gate is cancelled there.
        var closed = false
    }

    let seen = Monitor(Seen())
    /// The store whose handler appends a different value (a replay that must not match), if any.
    let divergence: Int?
    private let journalBox = Locked<Journal?>(nil)
    /// The model stores that have handlers (0...3), in registration order: the order their handlers run in.
    private let registeredBox = Locked<[Int]>(Array(0..<4))
    /// The action in flight of the program's shutdown, and where its handler waits; see `ProgramContext+Shutdown.swift`.
    let inFlight = Locked<InFlightPause?>(nil)

    private static let contexts = Locked<[ObjectIdentifier: ProgramContext]>([:])

    init(for dispatcher: Dispatcher, divergence: Int? = nil) {
        self.divergence = divergence
        Self.contexts.withLock { $0[ObjectIdentifier(dispatcher)] = self }
        dispatcher.onTaskError = { [seen] error in
            let id = error.taskID.map { "\($0)" } ?? "nil"
            seen.withLock { $0.reports.append("task \(error.kind) \(id)") }
        }
        dispatcher.onQueuedError = { [seen] action, error in
            seen.withLock { $0.reports.append("queued \(action.name) \(Self.describe(error))") }
        }
        dispatcher.taskStarter = LiveTaskCounter(seen: seen)
    }

    /// Forgets the context of `dispatcher` (at the end of its program).
    static func forget(_ dispatcher: Dispatcher) {
        _ = contexts.withLock { $0.removeValue(forKey: ObjectIdentifier(dispatcher)) }
    }

    static func of(_ dispatcher: Dispatcher) -> ProgramContext? {
        contexts.withLock { $0[ObjectIdentifier(dispatcher)] }
    }

    var journal: Journal? {
        get { journalBox.withLock { $0 } }
        set { journalBox.withLock { $0 = newValue } }
    }

    var keptEffects: Effects? { seen.withLock { $0.keptEffects } }

    /// The stores with handlers in registration order; the harness sets it when it registers or unregisters one.
    var registered: [Int] {
        get { registeredBox.withLock { $0 } }
        set { registeredBox.withLock { $0 = newValue } }
    }

    /// Notes what a `read {}` saw: every store's items (`[-1]` for one not registered).
    func noteRead(by reader: String, _ states: [[Int]]) {
        seen.withLock { $0.reads.append("\(reader) read \(states)") }
    }

    func keepEffects(_ effects: Effects) {
        seen.withLock { $0.keptEffects = effects }
    }

    /// How an error reads in the logs: its kind, not its wording.
    static func describe(_ error: any Error) -> String {
        switch error {
        case is CancellationError: "cancelled"
        case let rejected as Rejected: "\(rejected)"
        case is MiddlewareFailed: "middlewareFailed"
        case let error as JournalError:
            if case .travelling = error { "travelling" } else { "journal" }
        case PersistenceError.locationInUse: "locationInUse"
        case let error as FluxionError:
            switch error {
            case .batchInsideAction: "batchInsideAction"
            case .dispatcherShutDown: "shutDown"
            default: "fluxion"
            }
        default: "\(type(of: error))"
        }
    }

    func log(_ gate: Int, _ event: String) {
        seen.withLock { $0.taskLog[gate, default: []].append(event) }
    }
}
