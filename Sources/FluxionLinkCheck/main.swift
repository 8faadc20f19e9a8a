// An app that links only Fluxion, for `.ci/run`'s link check: it records a journal in memory and to a file,
// writes its Trace Event export, and prints what it recorded. CI checks that its binary holds none of the
// journal viewer (FluxionInspector): no viewer symbol, no embedded page.

import Fluxion
import Foundation

extension ActionName where Payload == Int {
    static var increment: Self { "increment" }
}

/// A count that `.increment` raises.
final class CountStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.increment) { count, action in count += action.payload }
    }
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("link-check-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let dispatcher = Dispatcher()
try dispatcher.register(CountStore.self)
let journal = try Journal(recording: dispatcher, writingTo: folder.appendingPathComponent("session.jsonl"))
let trace = dispatcher.startTracing()
try dispatcher.dispatch(.increment, payload: 2)
trace.stop()
try trace.write(to: folder.appendingPathComponent("trace.json"))
journal.stop()
print(journal.records.map(\.description).joined(separator: "\n"))
