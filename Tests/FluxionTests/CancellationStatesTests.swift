import Foundation
import Testing

@testable import Fluxion

/// Where a step cancels the import asked for before it, in the same step, batch or turn.
enum CancellingPlace: String, Sendable, CaseIterable, CustomTestStringConvertible {
    /// A later handler of the very action that asked for it.
    case laterHandler
    /// A later action of the batch whose earlier action asked for it.
    case laterActionOfTheBatch
    /// An action an observer of the step dispatches: it runs in the same turn.
    case actionAnObserverDispatches

    var testDescription: String { rawValue }
}

/// Issue 43.1: one cancellation reaches a task in every state — asked for by a running step, committed but not
/// started, running — whichever spelling and thread it comes from, and what the journal says is what happened.
@Suite(.serialized, .timeLimit(.minutes(10))) struct CancellationStatesTests {
    /// An effect asked for earlier in the same step, batch or turn never runs its work, is reported as
    /// cancelled (not as a refused dispatch), and the journal says so; `effects.cancel(id:)` and
    /// `cancelTasks(id:)` agree.
    @Test(arguments: CancellingPlace.allCases, CancelSpelling.allCases)
    func aCancellationLaterInTheTurnKeepsAnEarlierEffectFromRunning(
        place: CancellingPlace, spelling: CancelSpelling
    ) async throws {
        let fixture = try BudgetFixture()
        let dispatcher = fixture.dispatcher
        var tokens: [ObservationToken] = []
        switch place {
        case .laterHandler:
            try dispatcher.dispatch(.importTransactions, payload: ImportPlan(cancelledByLaterHandler: spelling))
        case .laterActionOfTheBatch:
            try dispatcher.batch { batch in
                try batch.dispatch(.importTransactions, payload: ImportPlan())
                try batch.dispatch(.cancelImport, payload: spelling)
            }
        case .actionAnObserverDispatches:
            let store = try dispatcher.store(ImportAuditStore.self)
            tokens.append(
                store.observe { [weak dispatcher] change in
                    guard change.action.name == ActionName<ImportPlan>.importTransactions.rawValue else { return }
                    try? dispatcher?.dispatch(.cancelImport, payload: spelling)
                })
            try dispatcher.dispatch(.importTransactions, payload: ImportPlan())
        }
        await dispatcher.waitUntilDrained()

        #expect(fixture.bank.calls.values == [], "the import's work ran: the bank was called")
        #expect(fixture.errors.values.map(\.description) == [], "a cancelled effect is no refused dispatch")
        #expect(fixture.effects(ofStep: 1).first == "import: cancelled")
        #expect(try dispatcher.store(BankImportStore.self).state == 0)
        #expect(dispatcher.runningTaskCount == 0)
        withExtendedLifetime(tokens) {}
    }

    /// A cancellation from another thread while the handler runs reaches the effect the handler asked for
    /// before it; one the handler asks for after the cancellation returned starts.
    @Test(arguments: [false, true])
    func aCancellationFromAnotherThreadReachesTheEffectsTheRunningStepAskedFor(cancelsAll: Bool) async throws {
        let fixture = try BudgetFixture()
        let (dispatcher, bank) = (fixture.dispatcher, fixture.bank)
        let dispatched = DispatchGroup()
        dispatched.runOnNewThread {
            try? dispatcher.dispatch(.importTransactions, payload: ImportPlan(pausesAfterAsking: true))
        }
        await onThread { bank.paused.wait(for: 1) }

        if cancelsAll { dispatcher.cancelAllTasks() } else { dispatcher.cancelTasks(id: "import") }
        bank.resume.open()
        await onThread { dispatched.wait() }
        await dispatcher.waitUntilDrained()

        #expect(bank.calls.values == ["audit"], "the import, asked for before the cancellation, never runs")
        #expect(fixture.effects(ofStep: 1) == ["import: cancelled", "audit: finished"])
        #expect(fixture.errors.values.map(\.description) == [])
    }

    /// An effect committed but not started yet when another thread cancels it never runs its work.
    @Test func aCancellationFromAnotherThreadBeforeTheEffectsStartReachesThem() async throws {
        let fixture = try BudgetFixture()
        let (dispatcher, bank) = (fixture.dispatcher, fixture.bank)
        let store = try dispatcher.store(ImportAuditStore.self)
        let token = store.observe { _ in
            // NB: the step has committed, its effect is registered: another thread cancels it now.
            let cancelled = DispatchGroup()
            cancelled.runOnNewThread { dispatcher.cancelTasks(id: "import") }
            cancelled.wait()
        }
        defer { token.cancel() }

        try dispatcher.dispatch(.importTransactions, payload: ImportPlan())
        await dispatcher.waitUntilDrained()

        #expect(bank.calls.values == [])
        #expect(fixture.effects(ofStep: 1) == ["import: cancelled"])
        #expect(fixture.errors.values.map(\.description) == [])
    }

    /// A task that dispatched while the journal showed the past, and ended, is reached by a cancellation that
    /// comes afterwards: its held dispatch is refused when the present returns, and reported.
    @Test func aCancellationReachesATaskThatEndedThroughItsHeldDispatch() async throws {
        let service = SearchService()
        let (dispatcher, search, errors) = try makeSearchDispatcher(service: service)
        try dispatcher.register(ShelfStore.self)
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.findProducts, payload: "mil")
        try journal.stepBack()
        await service.respond(to: "mil", with: ["milk"])
        await dispatcher.waitUntilDrained()  // NB: the task's dispatch was held, and the task ended
        #expect(dispatcher.runningTaskCount == 0)

        dispatcher.cancelTasks(id: "search")
        try journal.returnToPresent()

        #expect(search.state.results == [], "the held dispatch of the cancelled task ran")
        let error = try #require(errors.values.first)
        #expect(error.kind == .refused && error.hasTaskID("search"))
    }

    /// The one difference: `cancelTasks(id:)` from a handler acts at once, and a rollback does not take it
    /// back; `effects.cancel(id:)` belongs to the step, and cancels nothing when the step rolls back.
    @Test(arguments: CancelSpelling.allCases)
    func aRolledBackStepCancelsOnlyThroughTheDispatcher(spelling: CancelSpelling) async throws {
        let fixture = try BudgetFixture()
        let dispatcher = fixture.dispatcher
        let task = dispatcher.dispatchTask(id: "import") { _ in try await waitUntilCancelled() }

        #expect(throws: TestError("refused")) { try dispatcher.dispatch(.cancelImportThenFail, payload: spelling) }

        #expect(task.isCancelled == (spelling == .cancelTasks))
        dispatcher.cancelAllTasks()
        await #expect(throws: CancellationError.self) { try await task.value }
        let cancellations = fixture.journal.records.flatMap(\.effects).map(\.name)
        #expect(cancellations == [], "a step that rolled back is not in the journal")
    }
}

/// Runs `body`, which blocks, on a thread of its own, so that no thread of the concurrency pool blocks.
func onThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        Thread {
            body()
            done.resume()
        }.start()
    }
}
