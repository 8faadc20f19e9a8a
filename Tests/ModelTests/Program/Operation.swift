/// One step of a model program: what the program's own thread does next.
enum Operation: Sendable, Equatable, CustomStringConvertible {
    /// `dispatch(.op, payload:)` from outside any action.
    case dispatch(Command)
    /// `dispatchBypassingSuspension(.op, payload:)`.
    case dispatchBypassingSuspension(Command)
    /// A batch of these commands, then (if given) an inline mutation appending `mutationTag` to a store,
    /// then (if `aborts`) a throw from the closure.
    case batch([Command], mutating: Int? = nil, mutationTag: Int = 0, aborts: Bool = false)
    /// A batch of these dispatches and inline mutations, in order, then (if `aborts`) a throw from the closure.
    case batchOf([BatchItem], aborts: Bool = false)
    /// A batch whose closure calls `journal.stepBack()` (refused), then dispatches `command`.
    case batchSteppingBack(Command)
    /// `dispatchTask` from outside any action.
    case startTask(TaskPlan)
    /// Opens a gate, and waits until every task waits at a gate again or has ended.
    case proceed(gate: Int)
    case cancelTasks(id: String)
    case cancelAllTasks
    /// `suspend()`; the suspension is kept until `.release`.
    case suspend
    /// Releases the newest suspension still held.
    case release
    case stepBack
    case stepForward
    /// `journal.travel(to: step)`: a move over any number of steps at once.
    case travel(to: Int)
    case returnToPresent
    case resumeDiscardingLaterSteps
    /// The next change a store's observer hears, it reacts so (once).
    case armObserver(store: Int, Reaction)
    /// The next `op` action the program's middleware passes on, it reacts so after `next` (once).
    case armMiddleware(MiddlewareReaction)
    /// `dispatcher.flush()`, then the archives are compared.
    case flush
    /// `Journal(recording:)` on the dispatcher the program's journal records.
    case attachSecondJournal
    /// A second dispatcher registers store A on the program's storage, which the program's dispatcher owns.
    case openSecondDispatcher
    /// `dispatch(.poke, payload:)` from outside any action: store H's handler, which cannot throw, changes its
    /// state in place.
    case poke(Poke)
    /// `unregister` of store 2...6 (a store with handlers, or a computed one).
    case unregister(store: Int)
    /// `register` of store 2...6 again (its store is made at once, and observed).
    case register(store: Int)
    /// Every suspension released, then `shutdown()` while another thread dispatches `inFlight`, whose
    /// first touched store's handler waits, once it did what its command says, until shutdown has begun;
    /// the archives are compared afterwards. The last operation of a program.
    case shutdown(inFlight: Command)

    var description: String {
        switch self {
        case .dispatch(let command): ".dispatch(\(command))"
        case .dispatchBypassingSuspension(let command): ".dispatchBypassingSuspension(\(command))"
        case .batch(let commands, let store, let tag, let aborts):
            ".batch([\(commands.map(\.description).joined(separator: ", "))]"
                + (store.map { ", mutating: \($0), mutationTag: \(tag)" } ?? "")
                + (aborts ? ", aborts: true" : "") + ")"
        case .batchOf(let items, let aborts):
            ".batchOf([\(items.map(\.description).joined(separator: ", "))]" + (aborts ? ", aborts: true" : "") + ")"
        case .batchSteppingBack(let command): ".batchSteppingBack(\(command))"
        case .startTask(let plan): ".startTask(\(plan))"
        case .proceed(let gate): ".proceed(gate: \(gate))"
        case .cancelTasks(let id): ".cancelTasks(id: \"\(id)\")"
        case .cancelAllTasks: ".cancelAllTasks"
        case .suspend: ".suspend"
        case .release: ".release"
        case .stepBack: ".stepBack"
        case .stepForward: ".stepForward"
        case .travel(let step): ".travel(to: \(step))"
        case .returnToPresent: ".returnToPresent"
        case .resumeDiscardingLaterSteps: ".resumeDiscardingLaterSteps"
        case .armObserver(let store, let reaction): ".armObserver(store: \(store), \(reaction))"
        case .armMiddleware(let reaction): ".armMiddleware(\(reaction))"
        case .flush: ".flush"
        case .attachSecondJournal: ".attachSecondJournal"
        case .openSecondDispatcher: ".openSecondDispatcher"
        case .poke(let poke): ".poke(\(poke))"
        case .unregister(let store): ".unregister(store: \(store))"
        case .register(let store): ".register(store: \(store))"
        case .shutdown(let command): ".shutdown(inFlight: \(command))"
        }
    }
}

/// What an armed observer does when it hears its next change.
enum Reaction: Sendable, Equatable, CustomStringConvertible {
    case dispatch(Command)
    case startTask(TaskPlan)
    case stepBack
    case cancelTasks(id: String)
    /// `dispatcher.read {}`, noting every store's state it reads.
    case read

    var startsTask: Bool {
        if case .startTask = self { true } else { false }
    }

    var dispatches: Bool {
        if case .dispatch = self { true } else { false }
    }

    var description: String {
        switch self {
        case .dispatch(let command): ".dispatch(\(command))"
        case .startTask(let plan): ".startTask(\(plan))"
        case .stepBack: ".stepBack"
        case .cancelTasks(let id): ".cancelTasks(id: \"\(id)\")"
        case .read: ".read"
        }
    }
}

/// What the armed middleware does after `next` returns.
enum MiddlewareReaction: Sendable, Equatable, CustomStringConvertible {
    case throwAfterNext
    case startTask(TaskPlan)

    var description: String {
        switch self {
        case .throwAfterNext: ".throwAfterNext"
        case .startTask(let plan): ".startTask(\(plan))"
        }
    }
}
