import Fluxion
import Foundation

/// A program's real dispatcher: four stores (two persistent) and three computed ones (E from A and B, F from
/// A, C and D, G from E and F), an observer on each, the program's middleware and a journal writing a file.
/// It applies operations and reports what can be seen.
final class RealRun {
    let dispatcher = Dispatcher()
    let context: ProgramContext
    let journal: Journal
    let storage = InMemoryStateStorage()
    let fileURL: URL
    private var suspensions: [DispatchSuspension] = []
    /// The observer of each store, by index, and the store it observes.
    var tokens: [Int: (store: ObjectIdentifier, token: ObservationToken)] = [:]
    private var otherJournals: [Journal] = []

    init() throws {
        context = ProgramContext(for: dispatcher)
        let storage = storage
        let persistence = { (key: String) in
            Persistence<Items>(storage: storage, key: key, debounce: .seconds(3_600))
        }
        try dispatcher.register(StoreA.self, persistence: persistence("A"))
        try dispatcher.register(StoreB.self, persistence: persistence("B"))
        try dispatcher.register(StoreC.self)
        try dispatcher.register(StoreD.self)
        try StoreE.register(on: dispatcher)
        try StoreF.register(on: dispatcher)
        try StoreG.register(on: dispatcher)
        try dispatcher.register(StoreH.self)
        dispatcher.registerReplayableError(ModelFailure.self)
        let (context, dispatcher) = (context, dispatcher)
        fileURL = FileManager.default.temporaryDirectory.appendingPathComponent("model-\(UUID().uuidString).jsonl")
        journal = try Journal(recording: dispatcher, writingTo: fileURL)
        context.journal = journal
        observeRegisteredStores()
        _ = dispatcher.addMiddleware(ModelMiddleware(context: context))
    }

    static func observe<S: ItemList>(
        _ store: Store<S>, _ index: Int, _ context: ProgramContext, _ dispatcher: Dispatcher
    ) -> ObservationToken {
        store.observe { [context, weak dispatcher] change in
            guard let dispatcher else { return }
            context.heard(
                index, old: change.oldState.items, new: change.newState.items, action: change.action.name,
                on: dispatcher)
        }
    }

    /// Applies `operation`, waits until its tasks settle, and returns what it returned or threw.
    ///
    /// - Parameter drainers: How many tasks await the drain once the operation is over, as the model says:
    ///   the settle waits for the others to go on.
    func apply(_ operation: Operation, drainers: Int = 0) -> String {
        var outcome = "ok"
        func attempt(_ body: () throws -> Void) {
            do { try body() } catch { outcome = "threw \(ProgramContext.describe(error))" }
        }
        switch operation {
        case .dispatch(let command): attempt { try dispatcher.dispatch(.op, payload: command, error: command.error) }
        case .dispatchBypassingSuspension(let command):
            attempt { try dispatcher.dispatchBypassingSuspension(.op, payload: command, error: command.error) }
        case .batch(let commands, let store, let tag, let aborts):
            attempt {
                try dispatcher.batch { batch in
                    for command in commands { try batch.dispatch(.op, payload: command, error: command.error) }
                    if let store { try ModelStoreSet.mutate(store, in: batch, .append, tag: tag) }
                    if aborts { throw Aborted() }
                }
            }
        case .batchOf(let items, let aborts): attempt { try batch(items, aborts: aborts) }
        case .batchSteppingBack(let command):
            attempt {
                try dispatcher.batch { [journal, context] batch in
                    do {
                        try journal.stepBack()
                        context.report("batch stepBack moved")
                    } catch {
                        context.report("batch stepBack refused")
                    }
                    try batch.dispatch(.op, payload: command, error: command.error)
                }
            }
        case .startTask(let plan): context.startTask(plan, on: dispatcher)
        case .proceed(let gate): context.open(gate)
        case .cancelTasks(let id): dispatcher.cancelTasks(id: id)
        case .cancelAllTasks: dispatcher.cancelAllTasks()
        case .suspend: suspensions.append(dispatcher.suspend())
        case .release: suspensions.popLast()?.release()
        case .stepBack: attempt { try journal.stepBack() }
        case .stepForward: attempt { try journal.stepForward() }
        case .travel(let step): attempt { try journal.travel(to: step) }
        case .returnToPresent: attempt { try journal.returnToPresent() }
        case .resumeDiscardingLaterSteps: journal.resumeDiscardingLaterSteps()
        case .armObserver(let store, let reaction): context.arm(observerOf: store, reaction)
        case .armMiddleware(let reaction): context.arm(reaction)
        case .flush: dispatcher.flush()
        case .poke(let poke):
            attempt {
                try StoreH.lending(try? dispatcher.store(StoreH.self)) { try dispatcher.dispatch(.poke, payload: poke) }
            }
        case .unregister(let store): unregister(store)
        case .register(let store): attempt { try register(store) }
        case .shutdown(let command): outcome = shutDown(inFlight: command)
        case .attachSecondJournal:
            do {
                otherJournals.append(try Journal(recording: dispatcher))
            } catch JournalError.alreadyRecorded {
                outcome = "threw refused"
            } catch {
                outcome = "threw \(ProgramContext.describe(error))"
            }
        case .openSecondDispatcher:
            attempt {
                try Dispatcher().register(
                    StoreA.self, persistence: Persistence<Items>(storage: storage, key: "A", debounce: .seconds(3_600)))
            }
        }
        if let hung = context.settle(dispatcher, drainers: drainers) { outcome += " (\(hung))" }
        return outcome
    }

    /// Releases every suspension, then shuts the dispatcher down while `command` is in flight on another
    /// thread; returns that dispatch's outcome, or says that `shutdown()` hung.
    private func shutDown(inFlight command: Command) -> String {
        while let suspension = suspensions.popLast() { suspension.release() }
        let (goOn, outcome) = context.dispatchInFlight(command, on: dispatcher)
        dispatcher.beginShutdown()
        goOn()
        let returned = DispatchSemaphore(value: 0)
        Task { [dispatcher] in
            await dispatcher.shutdown()
            returned.signal()
        }
        // NB: a hang guard: shutdown() returns once the action in flight and every task have ended.
        guard returned.wait(timeout: HangGuard.deadline) == .success else { return "shutdown() hung" }
        return outcome()
    }

    /// What can be seen now; `outcome` is the last operation's.
    func world(outcome: String, withArchive: Bool) -> World {
        let seen = context.seen.withLock { $0 }
        var world = World()
        world.states = ModelStoreSet.states(of: dispatcher)
        world.observed = seen.observed
        world.reads = seen.reads
        world.records = journal.records.map(Self.line)
        world.taskLog = seen.taskLog
        world.reports = seen.reports
        world.outcome = outcome
        world.running = dispatcher.runningTaskCount
        if withArchive {
            world.archive = storage.archives.compactMapValues { data in
                (try? JSONDecoder().decode(Archive.self, from: data))?.state.items
            }
        }
        return world
    }

    static func line(_ record: JournalRecord) -> String {
        RecordText.line(
            sequence: record.sequence, name: record.name, cause: "\(record.cause)",
            stores: record.changes.map(\.store),
            effects: record.effects.map { "\($0.name): \($0.outcome.map(describe) ?? "running")" })
    }

    /// How an effect's outcome reads in the logs: a Fluxion error by its kind (as `ProgramContext.describe`
    /// gives it), not its wording.
    private static func describe(_ outcome: JournalRecord.Effect.Outcome) -> String {
        if case .failed(let message) = outcome, message.hasPrefix("Store "),
            message.contains("is not registered with this dispatcher")
        {
            return "failed: fluxion"
        }
        return "\(outcome)"
    }

    /// Ends the program: closes its gates, releases its suspensions, cancels its tasks, stops the journal.
    ///
    /// The suspensions are released before the tasks settle: a plain child task awaiting the drain while
    /// actions wait for a release waits until they have run ("returns once no action is running and none is
    /// waiting for a release"), and `cancelAllTasks()` does not end its wait (Swift does not cancel a plain
    /// `Task`).
    ///
    /// - Returns: What hung, if the cancelled tasks did not all end or wait at a gate.
    @discardableResult
    func close() -> String? {
        context.close()
        while let suspension = suspensions.popLast() { suspension.release() }
        dispatcher.cancelAllTasks()
        let hung = context.settle(dispatcher)
        journal.stop()
        for journal in otherJournals { journal.stop() }
        for (_, token) in tokens.values { token.cancel() }
        ProgramContext.forget(dispatcher)
        try? FileManager.default.removeItem(at: fileURL)
        return hung
    }
}

/// An archive as persistence writes it.
private struct Archive: Decodable {
    let state: Items
}

/// The error a batch closure throws to abort.
struct Aborted: Error {}
