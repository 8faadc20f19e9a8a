import Fluxion
import FluxionTesting
import Testing

struct Ledger: Sendable, Equatable {
    var amounts: [Int] = []
}

struct Budget: Sendable, Equatable {
    var limit = 100
}

struct MonthSummary: Sendable, Equatable {
    var spent = 0
    var left = 0
}

extension ActionName where Payload == Int {
    static var spend: Self { "testingSpend" }
    static var setLimit: Self { "testingSetLimit" }
}

final class LedgerStore: Store<Ledger>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Ledger()) }

    override class var handlers: HandlerTable<Ledger> {
        HandlerTable().on(.spend) { state, action in state.amounts.append(action.payload) }
    }
}

final class BudgetStore: Store<Budget>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Budget()) }

    override class var handlers: HandlerTable<Budget> {
        HandlerTable().on(.setLimit) { state, action in state.limit = action.payload }
    }
}

/// Computed from the ledger and the budget.
final class MonthSummaryStore: Store<MonthSummary>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: MonthSummary()) }
}

/// Issue 45.2: a test dispatcher derives a computed store's expected state from its sources' expected
/// states, and exhaustivity can leave chosen stores unchecked.
@Suite(.timeLimit(.minutes(10))) struct TestDispatcherComputedStoreTests {
    private func makeTest(_ exhaustivity: TestDispatcher.Exhaustivity = .on) throws -> TestDispatcher {
        let test = TestDispatcher(exhaustivity: exhaustivity)
        try test.register(LedgerStore.self)
        try test.register(BudgetStore.self)
        try test.register(MonthSummaryStore.self, computedFrom: LedgerStore.self, BudgetStore.self) { ledger, budget in
            let spent = ledger.amounts.reduce(0, +)
            return MonthSummary(spent: spent, left: budget.limit - spent)
        }
        return test
    }

    @Test func aTestNamesOnlyTheSourceItChanges() async throws {
        let test = TestDispatcher()
        try test.register(LedgerStore.self)
        try test.register(BudgetStore.self)
        // article-computedStore-begin
        try test.register(MonthSummaryStore.self, computedFrom: LedgerStore.self, BudgetStore.self) { ledger, budget in
            let spent = ledger.amounts.reduce(0, +)
            return MonthSummary(spent: spent, left: budget.limit - spent)
        }
        try test.dispatch(.spend, payload: 30) { $0.modify(LedgerStore.self) { $0.amounts.append(30) } }
        // article-computedStore-end
        try test.dispatch(.setLimit, payload: 50) { $0.modify(BudgetStore.self) { $0.limit = 50 } }
        #expect(try test.dispatcher.store(MonthSummaryStore.self).state == MonthSummary(spent: 30, left: 20))
        await test.finish()
    }

    @Test func aComputedStateWrittenByHandThatAgreesStillPasses() async throws {
        let test = try makeTest()

        try test.dispatch(.spend, payload: 30) {
            $0.modify(LedgerStore.self) { $0.amounts.append(30) }
            $0.modify(MonthSummaryStore.self) { $0 = MonthSummary(spent: 30, left: 70) }
        }
        await test.finish()
    }

    @Test func aComputedStateWrittenByHandThatDisagreesFailsWithADiff() async throws {
        let test = try makeTest()

        try withKnownIssue {
            try test.dispatch(.spend, payload: 30) {
                $0.modify(LedgerStore.self) { $0.amounts.append(30) }
                $0.modify(MonthSummaryStore.self) { $0 = MonthSummary(spent: 30, left: 60) }
            }
        } matching: { issue in
            "\(issue)".contains("set MonthSummaryStore other than its computation from the expected sources")
                && "\(issue)".contains("left: 70 → 60")
        }
        await test.finish()
    }

    @Test func aSourceExpectedWrongFailsOnTheSourceAndTheComputedStore() async throws {
        let test = try makeTest()

        try withKnownIssue {
            try test.dispatch(.spend, payload: 30) { $0.modify(LedgerStore.self) { $0.amounts.append(31) } }
        } matching: { issue in
            "\(issue)".contains("changed LedgerStore other than expected")
                || "\(issue)".contains("changed MonthSummaryStore other than expected")
        }
        await test.finish()
    }

    @Test func exhaustivityOnExceptAStoreLeavesThatStoreUnchecked() async throws {
        let test = TestDispatcher(exhaustivity: .on(except: LogStore.self))
        try test.register(CounterStore.self)
        try test.register(LogStore.self)

        try test.dispatch(.add, payload: 2) { $0.modify(CounterStore.self) { $0.count = 2 } }
        try withKnownIssue {
            try test.dispatch(.add, payload: 3) { $0.modify(LogStore.self) { $0.lines.append("add 3") } }
        } matching: { issue in
            "\(issue)".contains("changed CounterStore but the expectation did not say so")
        }
        try withKnownIssue {
            try test.dispatch(.add, payload: 1) {
                $0.modify(CounterStore.self) { $0.count = 6 }
                $0.modify(LogStore.self) { $0.lines = [] }
            }
        } matching: { issue in
            "\(issue)".contains("changed LogStore other than expected")
        }
        await test.finish()
    }

    @Test func exhaustivityOnExceptStillReceivesEveryAction() async throws {
        let test = TestDispatcher(exhaustivity: .on(except: LogStore.self))
        try test.register(CounterStore.self)
        try test.register(LogStore.self)

        try test.dispatcher.dispatch(.add, payload: 2)
        await withKnownIssue {
            await test.finish()
        } matching: { issue in
            "\(issue)".contains("were not received")
        }
    }
}
