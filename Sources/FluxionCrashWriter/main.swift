import Fluxion
import Foundation

// A helper for the crash-safety test: restores a large state from a
// `FileStateStorage`, says "ready <generation>", then writes a new generation
// of the state in a loop until it is killed. The test kills it with SIGKILL
// at random moments and checks that the archive is whole after each kill.
//
// Usage: FluxionCrashWriter <directory> <item count>
// Exit status: 64 for bad arguments, 3 when restoring the archive failed.
//
// `FluxionCrashWriter ledger <directory>` is the other process of the archive-ownership tests:
// see `LedgerOwner.swift`.

/// A state whose every item equals its generation, so a mix of two writes shows.
struct CrashState: Codable, Sendable {
    var generation = 0
    var items: [Int] = []
}

extension ActionName where Payload == Int {
    static var nextGeneration: Self { "nextGeneration" }
}

final class CrashStateStore: Store<CrashState>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: CrashState()) }

    override class var handlers: HandlerTable<CrashState> {
        HandlerTable().on(.nextGeneration) { state, action in
            state.generation += 1
            state.items = Array(repeating: state.generation, count: action.payload)
        }
    }
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("FluxionCrashWriter: \(message)\n".utf8))
    exit(status)
}

func run() throws -> Never {
    let arguments = CommandLine.arguments
    guard arguments.count == 3, let itemCount = Int(arguments[2]), itemCount >= 0 else {
        fail("usage: FluxionCrashWriter <directory> <item count>", status: 64)
    }
    let dispatcher = Dispatcher()
    dispatcher.onPersistenceError = { error in fail("\(error)", status: 3) }
    let storage = FileStateStorage(directory: URL(fileURLWithPath: arguments[1], isDirectory: true))
    try dispatcher.register(
        CrashStateStore.self, persistence: Persistence(storage: storage, key: "crash", debounce: .zero))
    let store = try dispatcher.store(CrashStateStore.self)
    FileHandle.standardOutput.write(Data("ready \(store.state.generation)\n".utf8))
    while true {
        try dispatcher.dispatch(.nextGeneration, payload: itemCount)
        dispatcher.flush()
    }
}

if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "ledger" {
    runLedgerOwner(directory: CommandLine.arguments[2])
}
do {
    try run()
} catch {
    fail("\(error)", status: 1)
}
