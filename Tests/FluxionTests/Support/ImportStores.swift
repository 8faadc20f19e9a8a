import Foundation
import Testing

@testable import Fluxion

/// How a step cancels the bank import: through its `Effects`, or through the dispatcher.
enum CancelSpelling: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case effectsCancel
    case cancelTasks

    var testDescription: String { rawValue }

    /// Cancels the import from a handler given `effects`, of a store of `dispatcher`.
    func cancelImport(_ effects: Effects, on dispatcher: Dispatcher?) {
        switch self {
        case .effectsCancel: effects.cancel(id: "import")
        case .cancelTasks: dispatcher?.cancelTasks(id: "import")
        }
    }
}

/// What a bank import step does beside asking for the import.
struct ImportPlan: Sendable {
    /// How a later handler of the same action cancels it, if it does.
    var cancelledByLaterHandler: CancelSpelling?
    /// Whether the handler, once it asked for the import, waits at `BankImportStore.pause` (another thread
    /// cancels meanwhile), then asks for a second import, `import`'s follow-up `"audit"`.
    var pausesAfterAsking = false
}

extension ActionName where Payload == ImportPlan {
    static var importTransactions: Self { "budgetImportTransactions" }
}

extension ActionName where Payload == CancelSpelling {
    static var cancelImport: Self { "budgetCancelImport" }
    /// Cancels the import, then throws `TestError("refused")`: the step rolls back.
    static var cancelImportThenFail: Self { "budgetCancelImportThenFail" }
}

extension ActionName where Payload == Int {
    static var importFinished: Self { "budgetImportFinished" }
}

/// The bank a budget app imports transactions from: it counts the calls its imports make.
final class Bank: Sendable {
    let calls = Recorder<String>()
    /// Where a pausing import step waits, and says it waits.
    let paused = ArrivalCounter()
    let resume = Gate()
}

/// A budget's transactions, imported by an effect under the id `"import"`.
final class BankImportStore: Store<Int>, @unchecked Sendable {  // state guarded by Store's lock; `bank` never changes
    let bank: Bank

    init(bank: Bank) {
        self.bank = bank
        super.init(initialState: 0)
    }

    override class var handlers: HandlerTable<Int> {
        HandlerTable()
            .on(.importTransactions, in: BankImportStore.self, with: .effects) { store, _, action, effects in
                let bank = store.bank
                effects.run(id: "import") { dispatcher in
                    bank.calls.append("import")
                    try dispatcher.dispatch(.importFinished, payload: 12)
                }
                guard action.payload.pausesAfterAsking else { return }
                bank.paused.arrive()
                bank.resume.wait()
                effects.run(id: "audit") { _ in bank.calls.append("audit") }
            }
            .on(.cancelImport, in: BankImportStore.self, with: .effects) { store, _, action, effects in
                action.payload.cancelImport(effects, on: store.dispatcher)
            }
            .on(.cancelImportThenFail, in: BankImportStore.self, with: .effects) { store, _, action, effects in
                action.payload.cancelImport(effects, on: store.dispatcher)
                throw TestError("refused")
            }
            .on(.importFinished) { count, action in count += action.payload }
    }
}

/// Handles the import action after ``BankImportStore``: it cancels the import when the plan says so.
final class ImportAuditStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // state guarded by Store's lock
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.importTransactions, in: ImportAuditStore.self, with: .effects) {
            store, count, action, effects in
            count += 1
            action.payload.cancelledByLaterHandler?.cancelImport(effects, on: store.dispatcher)
        }
    }
}

/// A dispatcher with the budget's stores, a journal, and what its tasks reported.
struct BudgetFixture {
    let dispatcher = Dispatcher()
    let bank = Bank()
    let journal: Journal
    let errors = Recorder<TaskError>()

    init() throws {
        let bank = bank
        try dispatcher.register(BankImportStore.self) { BankImportStore(bank: bank) }
        try dispatcher.register(ImportAuditStore.self)
        journal = try Journal(recording: dispatcher)
        let errors = errors
        dispatcher.onTaskError = { errors.append($0) }
    }

    /// The effects of the journal's step `sequence`, as `name: outcome`.
    func effects(ofStep sequence: Int) -> [String] {
        let record = journal.records.first { $0.sequence == sequence }
        return (record?.effects ?? []).map { "\($0.name): \($0.outcome.map { "\($0)" } ?? "running")" }
    }
}
