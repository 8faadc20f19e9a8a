import Fluxion
import Foundation

/// A budget app's ledger: what the user recorded and what the bank import brought.
struct BankLedger: Codable, Sendable, Equatable {
    var entries: [String] = []
}

extension ActionName where Payload == String {
    /// Records an entry in ``BankLedgerStore``.
    static var recordEntry: Self { "ledger.recordEntry" }
}

extension ActionName where Payload == Void {
    /// Starts ``BankLedgerStore``'s bank import, an effect with the id "import".
    static var importFromBank: Self { "ledger.importFromBank" }
}

extension ActionName where Payload == [String] {
    /// The entries the import brought.
    static var importedEntries: Self { "ledger.importedEntries" }
}

/// A persistent ledger whose import asks `bank` for the query "import" and records what it answers.
final class BankLedgerStore: Store<BankLedger>, @unchecked Sendable {  // locked by Store
    let bank: SearchService
    private let onDeinit: @Sendable () -> Void

    init(bank: SearchService = SearchService(), onDeinit: @escaping @Sendable () -> Void = {}) {
        self.bank = bank
        self.onDeinit = onDeinit
        super.init(initialState: BankLedger())
    }

    deinit { onDeinit() }

    override class var handlers: HandlerTable<BankLedger> {
        HandlerTable()
            .on(.recordEntry) { ledger, action in ledger.entries.append(action.payload) }
            .route(.importFromBank, to: BankLedgerStore.importFromBank)
            .on(.importedEntries) { ledger, action in ledger.entries += action.payload }
    }

    func importFromBank(_ ledger: inout BankLedger, _ action: Action<Void>, _ effects: Effects) {
        let bank = bank
        effects.run(id: "import") { dispatcher in
            try dispatcher.dispatch(.importedEntries, payload: await bank.results(for: "import"))
        }
    }
}

/// Tells once something is freed: `freed()` returns once the probe's owner has gone.
final class FreedSignal: Sendable {
    private let stream = AsyncStream.makeStream(of: Void.self)

    init() {}

    /// Call from the watched object's `deinit`.
    func send() {
        stream.continuation.yield()
        stream.continuation.finish()
    }

    /// Returns once ``send()`` was called.
    func freed() async {
        for await _ in stream.stream { break }
    }
}

/// The persistence of a ledger in `storage`, saved only by a flush or by its dispatcher's end.
func ledgerPersistence(_ storage: any StateStorage) -> Persistence<BankLedger> {
    Persistence(storage: storage, key: "ledger", debounce: .seconds(3_600))
}

/// A dispatcher with a ``BankLedgerStore`` persisted in `storage`, its persistence errors recorded in `errors`.
func makeLedgerDispatcher(
    _ storage: any StateStorage, bank: SearchService = SearchService(), errors: Recorder<PersistenceError>? = nil,
    freed: FreedSignal? = nil
) throws -> Dispatcher {
    let dispatcher = Dispatcher()
    if let errors { dispatcher.onPersistenceError = { errors.append($0) } }
    try dispatcher.register(BankLedgerStore.self, persistence: ledgerPersistence(storage)) {
        BankLedgerStore(bank: bank) { freed?.send() }
    }
    return dispatcher
}

/// The ledger a new dispatcher restores from `storage`; the dispatcher is shut down before it returns.
func restoredLedger(from storage: any StateStorage) async throws -> [String] {
    let reader = try makeLedgerDispatcher(storage)
    let entries = try reader.store(BankLedgerStore.self).state.entries
    await reader.shutdown()
    return entries
}
