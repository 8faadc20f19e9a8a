import Fluxion
import Testing

extension ActionName where Payload == Int {
    fileprivate static var add: Self { "logAdd" }
    fileprivate static var nest: Self { "logNest" }
    fileprivate static var toggle: Self { "logToggle" }
    fileprivate static var failSecond: Self { "logFailSecond" }
}

extension ActionName where Payload == [String] {
    fileprivate static var items: Self { "logItems" }
}

extension ActionName where Payload == String {
    fileprivate static var note: Self { "logNote" }
}

extension ActionName where Payload == String? {
    fileprivate static var nickname: Self { "logNickname" }
}

extension ActionName where Payload == Void {
    fileprivate static var touch: Self { "logTouch" }
    fileprivate static var fail: Self { "logFail" }
}

struct LoggedLeaf: Sendable, Equatable {
    var b = 0
    var label = "leaf"
}

struct LoggedTodo: Sendable, Equatable {
    var title: String
    var isDone = false
}

struct LoggedState: Sendable, Equatable {
    var total = 0
    var a = LoggedLeaf()
    var items = ["x", "y"]
    var todos = [LoggedTodo(title: "milk"), LoggedTodo(title: "eggs")]
    var nickname: String?
    var note = ""
}

/// A store whose state has fields, nested structs, arrays and an optional, for diffs.
final class LoggedStateStore: Store<LoggedState>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: LoggedState()) }

    override class var handlers: HandlerTable<LoggedState> {
        HandlerTable()
            .on(.add) { state, action in state.total += action.payload }
            .on(.nest) { state, action in state.a.b = action.payload }
            .on(.toggle) { state, action in state.todos[action.payload].isDone.toggle() }
            .on(.items) { state, action in state.items = action.payload }
            .on(.note) { state, action in state.note = action.payload }
            .on(.nickname) { state, action in state.nickname = action.payload }
            .on(.failSecond) { state, action in state.total += action.payload }
            .on(.touch) { _, _ in }
            .on(.fail) { state, _ in
                state.total = -1
                throw TestError("logFail")
            }
    }
}

/// Registered after ``LoggedStateStore``: adds ten times `.add`'s payload; throws on `.failSecond`.
final class LoggedSecondStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable()
            .on(.add) { state, action in state += action.payload * 10 }
            .on(.failSecond) { state, _ in
                state = -1
                throw TestError("logSecond")
            }
    }
}

/// A dispatcher with ``LoggedStateStore``, logging each line into `lines`.
private func makeLoggedDispatcher(lines: Recorder<String>, secondStore: Bool = false) throws -> Dispatcher {
    let dispatcher = Dispatcher()
    try dispatcher.register(LoggedStateStore.self)
    if secondStore { try dispatcher.register(LoggedSecondStore.self) }
    dispatcher.addMiddleware(LoggingMiddleware { lines.append($0) })
    return dispatcher
}

@Suite struct LoggingMiddlewareTests {
    @Test func aTypedActionIsLoggedWithItsPayloadAndTheChangedField() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines)

        try dispatcher.dispatch(.add, payload: 2)

        #expect(lines.values == ["▶ logAdd(2)", "  LoggedStateStore", "    total: 0 → 2"])
    }

    @Test func eachChangedStoreIsLoggedInRegistrationOrder() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines, secondStore: true)

        try dispatcher.dispatch(.add, payload: 3)

        #expect(
            lines.values == [
                "▶ logAdd(3)",
                "  LoggedStateStore",
                "    total: 0 → 3",
                "  LoggedSecondStore",
                "    state: 0 → 30",
            ])
    }

    @Test func aNestedFieldIsLoggedByItsPath() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines)

        try dispatcher.dispatch(.nest, payload: 5)
        try dispatcher.dispatch(.toggle, payload: 1)

        #expect(
            lines.values == [
                "▶ logNest(5)",
                "  LoggedStateStore",
                "    a.b: 0 → 5",
                "▶ logToggle(1)",
                "  LoggedStateStore",
                "    todos[1].isDone: false → true",
            ])
    }

    @Test func arrayElementsAreLoggedWhenChangedAddedOrRemoved() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines)

        try dispatcher.dispatch(.items, payload: ["x", "Y", "z"])
        try dispatcher.dispatch(.items, payload: ["x"])
        try dispatcher.dispatch(.items, payload: [])

        #expect(
            lines.values == [
                #"▶ logItems(["x", "Y", "z"])"#,
                "  LoggedStateStore",
                #"    items[1]: "y" → "Y""#,
                #"    items[2]: + "z""#,
                #"▶ logItems(["x"])"#,
                "  LoggedStateStore",
                #"    items[1]: - "Y""#,
                #"    items[2]: - "z""#,
                "▶ logItems([])",
                "  LoggedStateStore",
                #"    items[0]: - "x""#,
            ])
    }

    @Test func anElementAddedToAnEmptyArrayIsLoggedAsAnAddition() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines)
        try dispatcher.dispatch(.items, payload: [])
        lines.removeAll()

        try dispatcher.dispatch(.items, payload: ["new"])

        #expect(lines.values == [#"▶ logItems(["new"])"#, "  LoggedStateStore", #"    items[0]: + "new""#])
    }

    @Test func anOptionalFieldIsLoggedWholeWhenItAppearsOrGoes() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines)

        try dispatcher.dispatch(.nickname, payload: "Ann")
        try dispatcher.dispatch(.nickname, payload: nil)

        #expect(
            lines.values == [
                #"▶ logNickname("Ann")"#,
                "  LoggedStateStore",
                #"    nickname: nil → "Ann""#,
                "▶ logNickname(nil)",
                "  LoggedStateStore",
                #"    nickname: "Ann" → nil"#,
            ])
    }

    @Test func aChangedOptionalIsLoggedUnderItsOwnPath() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines)
        try dispatcher.dispatch(.nickname, payload: "Ann")
        lines.removeAll()

        try dispatcher.dispatch(.nickname, payload: "Bo")

        #expect(
            lines.values == [#"▶ logNickname("Bo")"#, "  LoggedStateStore", #"    nickname: "Ann" → "Bo""#])
    }

    @Test func anEquatableStateLeftEqualIsNoChangeAndNotListed() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines)

        try dispatcher.dispatch(.touch)

        #expect(lines.values == ["▶ logTouch"])
    }

    @Test func anErrorTheActionCarriesIsInTheSummary() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines)

        try dispatcher.dispatch(.add, payload: 1, error: TestError("carried"))
        try dispatcher.dispatch(.touch, error: TestError("void"))

        #expect(
            lines.values == [
                "▶ logAdd(1) error: TestError(carried)",
                "  LoggedStateStore",
                "    total: 0 → 1",
                "▶ logTouch error: TestError(void)",
            ])
    }

    @Test func aHandlersErrorIsLoggedAndRethrown() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines)

        #expect(throws: TestError("logFail")) { try dispatcher.dispatch(.fail) }

        #expect(lines.values == ["▶ logFail", "  ✗ TestError(logFail)"])
        #expect(try dispatcher.store(LoggedStateStore.self).state.total == 0)
    }

    @Test func aFailingStoreLogsTheErrorInsteadOfTheChanges() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines, secondStore: true)

        #expect(throws: TestError("logSecond")) { try dispatcher.dispatch(.failSecond, payload: 4) }

        #expect(lines.values == ["▶ logFailSecond(4)", "  ✗ TestError(logSecond)"])
        #expect(try dispatcher.store(LoggedStateStore.self).state.total == 0, "the other store rolled back too")
    }

    @Test func aLongPayloadIsCutToEightyCharacters() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines)
        let fits = String(repeating: "a", count: 78)  // 80 characters with its quotes
        let long = String(repeating: "b", count: 100)

        try dispatcher.dispatch(.note, payload: fits)
        try dispatcher.dispatch(.note, payload: long)

        #expect(lines.values[0] == "▶ logNote(\"\(fits)\")")
        #expect(lines.values[3] == "▶ logNote(\"\(String(repeating: "b", count: 78))…)")
        #expect(lines.values[0].count == "▶ logNote()".count + 80)
        #expect(lines.values[3].count == "▶ logNote()".count + 80)
    }

    @Test func anActionDroppedFurtherDownTheChainLogsOnlyItsSummary() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines)
        dispatcher.addMiddleware(ClosureMiddleware { _, _ in [] })

        try dispatcher.dispatch(.add, payload: 1)

        #expect(lines.values == ["▶ logAdd(1)"])
        #expect(try dispatcher.store(LoggedStateStore.self).state.total == 0)
    }

    @Test func anUnhandledActionLogsOnlyItsSummary() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines)

        try dispatcher.dispatch(AnyAction(name: "logNobody", payload: 1.5))

        #expect(lines.values == ["▶ logNobody(1.5)"])
    }
}

@Suite struct LoggingMiddlewareBatchTests {
    @Test func aBatchLogsEachActionThenEachChangedStoresDiffOnce() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines, secondStore: true)

        try dispatcher.batch { batch in
            try batch.dispatch(.note, payload: "hi")
            try batch.dispatch(.add, payload: 4)
        }

        #expect(
            lines.values == [
                #"▶ logNote("hi")"#,
                "▶ logAdd(4)",
                "✓ batch of 2 actions",
                "  LoggedStateStore",
                "    total: 0 → 4",
                #"    note: "" → "hi""#,
                "  LoggedSecondStore",
                "    state: 0 → 40",
            ])
    }

    @Test func aRolledBackBatchLogsNoDiff() throws {
        let lines = Recorder<String>()
        let dispatcher = try makeLoggedDispatcher(lines: lines)

        #expect(throws: TestError("logFail")) {
            try dispatcher.batch { batch in
                try batch.dispatch(.add, payload: 4)
                try batch.dispatch(.fail)
            }
        }

        #expect(lines.values == ["▶ logAdd(4)", "▶ logFail", "  ✗ TestError(logFail)"])
    }
}
