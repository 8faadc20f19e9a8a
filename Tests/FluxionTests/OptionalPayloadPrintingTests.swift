import Foundation
import Testing

@testable import Fluxion

extension ActionName where Payload == [String]? {
    fileprivate static var loaded: Self { "optionalLoaded" }
}

extension ActionName where Payload == Int? {
    fileprivate static var score: Self { "optionalScore" }
}

private struct Scores: Codable, Equatable, Sendable {
    var last: Int?
    var all: [Int?] = []
}

/// Keeps the scores `.score` carries, `nil` ones too.
private final class ScoresStore: Store<Scores>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Scores()) }

    override class var handlers: Handlers {
        HandlerTable().on(.score) { scores, action in
            scores.last = action.payload
            scores.all.append(action.payload)
        }
    }
}

/// Keeps what `.loaded` carries, or nothing.
private final class LoadedStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: Handlers {
        HandlerTable().on(.loaded) { list, action in list = action.payload ?? [] }
    }
}

/// A success-or-failure action written as `ActionName<[T]?>` prints its value, not `Optional(…)` (issue 25.5).
@Suite struct OptionalPayloadPrintingTests {
    @Test func anActionPrintsAnOptionalPayloadWithoutOptional() {
        #expect(AnyAction(name: "loaded", payload: [String]?.some(["tea"])).description == #"loaded(["tea"])"#)
        #expect(AnyAction(name: "loaded", payload: [String]?.none).description == "loaded(nil)")
        #expect(AnyAction(name: "loaded", payload: Int??.some(.some(3))).description == "loaded(3)")
    }

    @Test(arguments: [Set<String>(), ["secret"]])
    func theJournalAndTheLogPrintAnOptionalPayloadWithoutOptional(redactingKeys: Set<String>) throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(LoadedStore.self)
        let journal = try Journal(recording: dispatcher, redactingKeys: redactingKeys)
        let lines = Recorder<String>()
        dispatcher.addMiddleware(LoggingMiddleware { lines.append($0) })

        try dispatcher.dispatch(.loaded, payload: ["tea", "mug"])
        try dispatcher.dispatch(.loaded, payload: nil)

        #expect(journal.records.map(\.action) == [#"optionalLoaded(["tea", "mug"])"#, "optionalLoaded(nil)"])
        #expect(lines.values.contains(#"▶ optionalLoaded(["tea", "mug"])"#), "\(lines.values)")
        #expect(lines.values.contains("▶ optionalLoaded(nil)"), "\(lines.values)")
    }

    /// The journal's records (as `todo history` prints them) and its file print optional values
    /// plainly: `last: nil → 0`, not `last: nil → Optional(0)` (issue 34.5).
    @Test func theJournalsHistoryAndFilePrintOptionalValuesPlainly() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("optional-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = Dispatcher()
        try dispatcher.register(ScoresStore.self)
        let journal = try Journal(recording: dispatcher, writingTo: url)

        try dispatcher.dispatch(.score, payload: 0)
        try dispatcher.dispatch(.score, payload: nil)
        journal.flush()

        let history = [
            "#1 optionalScore(0)\n  ScoresStore.last: nil → 0\n  ScoresStore.all[0]: + 0",
            "#2 optionalScore(nil)\n  ScoresStore.last: 0 → nil\n  ScoresStore.all[1]: + nil",
        ]
        #expect(journal.records.map(\.description) == history)
        #expect(try Journal.records(contentsOf: url).map(\.description) == history)
        #expect(try !String(contentsOf: url, encoding: .utf8).contains("Optional("))
        #expect(!journal.linesInMemory().contains("Optional("))  // as the journal viewer shows memory
        journal.stop()
    }
}
