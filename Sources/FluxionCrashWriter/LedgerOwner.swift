import Fluxion
import Foundation

// The second process of the archive-ownership tests: a ledger app whose bank import is an effect.
//
// Usage: FluxionCrashWriter ledger <directory>
//
// Registers a ledger persisted in <directory> (debounced for an hour: only a
// flush or the end of the dispatcher writes it), starts its import, lets go
// of its dispatcher — which the running import keeps alive — and says
// "ready <entries, comma-separated>". The import waits for a line on
// standard input, records it in the ledger, and ends; the dispatcher, freed,
// writes its ledger and releases the directory, and the process says
// "released" and exits 0. Killed before that, it has written nothing, and the
// system releases the directory's lock.
//
// Exit status: 4 when another dispatcher (another process) owns the directory, with the error on
// standard error; 3 for another persistence error.

struct Ledger: Codable, Sendable {
    var entries: [String] = []
}

extension ActionName where Payload == Void {
    static var importFromBank: Self { "ledger.importFromBank" }
}

extension ActionName where Payload == String {
    static var imported: Self { "ledger.imported" }
}

final class LedgerStore: Store<Ledger>, @unchecked Sendable {  // locked by Store
    private let onDeinit: @Sendable () -> Void

    init(onDeinit: @escaping @Sendable () -> Void) {
        self.onDeinit = onDeinit
        super.init(initialState: Ledger())
    }

    deinit { onDeinit() }

    override class var handlers: HandlerTable<Ledger> {
        HandlerTable()
            .on(.importFromBank, with: .effects) { _, _, effects in
                effects.run(id: "import") { dispatcher in
                    try dispatcher.dispatch(.imported, payload: await lineFromStandardInput())
                }
            }
            .on(.imported) { ledger, action in ledger.entries.append(action.payload) }
    }
}

/// The next line of standard input, read off the cooperative pool.
func lineFromStandardInput() async -> String {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: readLine() ?? "") }
    }
}

func runLedgerOwner(directory: String) -> Never {
    let released = DispatchSemaphore(value: 0)
    do {
        let dispatcher = Dispatcher()
        dispatcher.onPersistenceError = { error in fail("\(error)", status: 3) }
        let storage = FileStateStorage(directory: URL(fileURLWithPath: directory, isDirectory: true))
        try dispatcher.register(
            LedgerStore.self, persistence: Persistence(storage: storage, key: "ledger", debounce: .seconds(3_600))
        ) { LedgerStore { released.signal() } }
        let entries = try dispatcher.store(LedgerStore.self).state.entries
        try dispatcher.dispatch(.importFromBank)
        FileHandle.standardOutput.write(Data("ready \(entries.joined(separator: ","))\n".utf8))
    } catch let error as PersistenceError {
        if case .locationInUse = error { fail("\(error)", status: 4) }
        fail("\(error)", status: 3)
    } catch {
        fail("\(error)", status: 1)
    }
    // NB: the dispatcher is let go: the import keeps it until it ends, and then it is freed, with its store.
    released.wait()
    FileHandle.standardOutput.write(Data("released\n".utf8))
    exit(0)
}
