import Fluxion
import Testing

extension ActionName where Payload == [String]? {
    fileprivate static var loaded: Self { "optionalLoaded" }
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
}
