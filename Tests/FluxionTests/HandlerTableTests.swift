import Fluxion
import Testing

extension ActionName where Payload == Int {
    fileprivate static var own: Self { "tableOwn" }
    fileprivate static var other: Self { "tableOther" }
    fileprivate static var scaled: Self { "tableScaled" }
    fileprivate static var replaced: Self { "tableReplaced" }
}

extension ActionName where Payload == String {
    fileprivate static var borrowed: Self { "tableBorrowed" }
    fileprivate static var waiting: Self { "tableWaiting" }
}

/// A Redux-style store: one entry of its own, and a catch-all reducer for the rest.
final class TableReducerStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable()
            .on(.own) { state, action in state.append("own:\(action.payload)") }
            .otherwise { state, action in
                let payload = action.payload(as: Int.self).map(String.init) ?? "\(action.payload)"
                state.append("otherwise:\(action.name):\(payload)")
            }
    }
}

/// Handles `.other` with an entry.
final class TablePlainStore: Store<Tally>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Tally()) }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable().on(.other) { state, action in state.add(action.payload) }
    }
}

/// Declares handlers as methods that use the instance the dispatcher created.
final class TableMethodStore: Store<Tally>, @unchecked Sendable {  // locked by Store
    let factor: Int

    init(factor: Int) {
        self.factor = factor
        super.init(initialState: Tally())
    }

    override class var handlers: HandlerTable<Tally> {
        HandlerTable()
            .route(.scaled, to: TableMethodStore.scale)
            .on(.replaced) { state, _ in state.add(-1) }
            .on(.replaced) { state, action in state.add(action.payload) }
            .route(.waiting, to: TableMethodStore.countAfterWaiting)
    }

    func scale(_ state: inout Tally, _ action: Action<Int>) throws {
        state.add(action.payload * factor)
    }

    func countAfterWaiting(_ state: inout Tally, _ action: Action<String>) throws {
        let other = try waitFor(TableLenderStore.self)
        state.add(other.state.count)
    }
}

/// Lends a method to ``TableBorrowerStore``; appends `.waiting` payloads.
final class TableLenderStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable().on(.waiting) { state, action in state.append(action.payload) }
    }

    func append(_ state: inout [String], _ action: Action<String>) throws {
        state.append(action.payload)
    }
}

/// Wrongly declares a method of ``TableLenderStore`` as its handler.
final class TableBorrowerStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable().route(.borrowed, to: TableLenderStore.append)
    }
}

@Suite struct HandlerTableTests {
    @Test func theCatchAllReducerGetsActionsWithoutAnEntryOfTheirOwn() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TableReducerStore.self)
        try dispatcher.register(TablePlainStore.self)

        try dispatcher.dispatch(.own, payload: 1)
        try dispatcher.dispatch(.other, payload: 2)
        try dispatcher.dispatch(AnyAction(name: "tableUnknown", payload: "text"))

        #expect(
            try dispatcher.store(TableReducerStore.self).state == [
                "own:1", "otherwise:tableOther:2", "otherwise:tableUnknown:text",
            ])
        #expect(try dispatcher.store(TablePlainStore.self).state.payloads == [2])
    }

    @Test func theCatchAllReducerGetsNamesOfStoresRegisteredBeforeIt() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TablePlainStore.self)
        try dispatcher.register(TableReducerStore.self)

        try dispatcher.dispatch(.other, payload: 2)
        try dispatcher.dispatch(.own, payload: 1)

        #expect(try dispatcher.store(TableReducerStore.self).state == ["otherwise:tableOther:2", "own:1"])
        #expect(try dispatcher.store(TablePlainStore.self).state.payloads == [2])
    }

    @Test func aStoreWithACatchAllReducerLeavesNoDeadLetters() throws {
        let deadLetters = Recorder<String>()
        let dispatcher = Dispatcher()
        dispatcher.onDeadLetter = { deadLetters.append($0.name) }
        try dispatcher.register(TableReducerStore.self)

        try dispatcher.dispatch(AnyAction(name: "tableNobody", payload: 4))

        #expect(deadLetters.values.isEmpty)
        #expect(try dispatcher.store(TableReducerStore.self).state == ["otherwise:tableNobody:4"])
    }

    @Test func unregisteringACatchAllStoreStopsItsDeliveries() throws {
        let deadLetters = Recorder<String>()
        let dispatcher = Dispatcher()
        dispatcher.onDeadLetter = { deadLetters.append($0.name) }
        try dispatcher.register(TableReducerStore.self)
        try dispatcher.register(TablePlainStore.self)
        let reducer = try dispatcher.store(TableReducerStore.self)

        dispatcher.unregister(TableReducerStore.self)
        try dispatcher.dispatch(.other, payload: 1)
        try dispatcher.dispatch(AnyAction(name: "tableNobody", payload: 4))

        #expect(reducer.state.isEmpty)
        #expect(try dispatcher.store(TablePlainStore.self).state.payloads == [1])
        #expect(deadLetters.values == ["tableNobody"])
    }

    @Test func aMethodHandlerRunsOnTheCreatedStore() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TableMethodStore.self) { TableMethodStore(factor: 3) }

        try dispatcher.dispatch(.scaled, payload: 2)

        #expect(try dispatcher.store(TableMethodStore.self).state == Tally(total: 6, calls: 1, payloads: [6]))
    }

    @Test func aMethodHandlerCanWaitForAnotherStore() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TableMethodStore.self) { TableMethodStore(factor: 1) }
        try dispatcher.register(TableLenderStore.self)

        try dispatcher.dispatch(.waiting, payload: "a")
        try dispatcher.dispatch(.waiting, payload: "b")

        // The waiter ran first by registration order, but saw the lender's new state.
        #expect(try dispatcher.store(TableMethodStore.self).state.payloads == [1, 2])
        #expect(try dispatcher.store(TableLenderStore.self).state == ["a", "b"])
    }

    @Test func aLaterEntryForTheSameNameReplacesTheEarlierOne() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TableMethodStore.self) { TableMethodStore(factor: 1) }

        try dispatcher.dispatch(.replaced, payload: 5)

        #expect(try dispatcher.store(TableMethodStore.self).state.payloads == [5])
    }

    @Test func aMethodOfAnotherStoreTypeThrowsStoreTypeMismatch() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(TableBorrowerStore.self)

        #expect(
            throws: FluxionError.storeTypeMismatch(
                action: "tableBorrowed", expected: "TableLenderStore", actual: "TableBorrowerStore")
        ) {
            try dispatcher.dispatch(.borrowed, payload: "x")
        }
        #expect(try dispatcher.store(TableBorrowerStore.self).state.isEmpty)
    }
}
