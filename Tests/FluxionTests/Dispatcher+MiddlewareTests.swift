import Fluxion
import Foundation
import Testing

extension ActionName where Payload == Int {
    fileprivate static var add: Self { "middlewareAdd" }
    fileprivate static var renamed: Self { "middlewareRenamed" }
    fileprivate static var trigger: Self { "middlewareTrigger" }
    fileprivate static var follow: Self { "middlewareFollow" }
    fileprivate static var chain: Self { "middlewareChain" }
    fileprivate static var both: Self { "middlewareBoth" }
    fileprivate static var bothFailing: Self { "middlewareBothFailing" }
}

extension ActionName where Payload == String {
    fileprivate static var text: Self { "middlewareText" }
}

extension ActionName where Payload == Void {
    fileprivate static var fail: Self { "middlewareFail" }
    fileprivate static var ping: Self { "middlewarePing" }
}

/// Writes each action it handles to `log` as `store name(payload)`, and keeps the payloads.
final class MiddlewareLogStore: Store<[Int]>, @unchecked Sendable {  // locked by Store; `log` is immutable
    let log: Recorder<String>

    init(log: Recorder<String>) {
        self.log = log
        super.init(initialState: [])
    }

    override class var handlers: HandlerTable<[Int]> {
        HandlerTable()
            .on(.add, MiddlewareLogStore.record)
            .on(.renamed, MiddlewareLogStore.record)
            .on(.trigger, MiddlewareLogStore.record)
            .on(.follow, MiddlewareLogStore.record)
            .on(.both, MiddlewareLogStore.record)
            .on(.bothFailing, MiddlewareLogStore.record)
            .on(.chain, MiddlewareLogStore.chain)
            .on(.text, MiddlewareLogStore.text)
            .on(.ping, MiddlewareLogStore.ping)
            .on(.fail, MiddlewareLogStore.fail)
    }

    func record(_ state: inout [Int], _ action: Action<Int>) throws {
        log.append("store \(action.name)(\(action.payload))")
        state.append(action.payload)
    }

    func chain(_ state: inout [Int], _ action: Action<Int>) throws {
        try record(&state, action)
        try dispatcher?.dispatch(.follow, payload: action.payload + 1)
    }

    func text(_ state: inout [Int], _ action: Action<String>) throws {
        log.append("store \(action.name)(\(action.payload))")
        state.append(action.payload.count)
    }

    func ping(_ state: inout [Int], _ action: Action<Void>) throws {
        log.append("store \(action.name)")
        state.append(0)
    }

    func fail(_ state: inout [Int], _ action: Action<Void>) throws {
        log.append("store \(action.name)")
        state.append(-1)
        throw TestError("middlewareFail")
    }
}

/// Sums the payloads of `.both`; throws on `.bothFailing`.
final class MiddlewareSumStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable()
            .on(.both) { state, action in state += action.payload }
            .on(.bothFailing) { state, _ in
                state = -1
                throw TestError("sum")
            }
    }
}

/// Handles nothing the tests dispatch to the other stores.
final class MiddlewareBystanderStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.add) { state, action in state += action.payload }
    }
}

/// Logs `tag>name` before passing the action on, and `tag<name count` after.
private struct TracingMiddleware: Middleware {
    let tag: String
    let log: Recorder<String>

    var observesChanges: Bool { true }

    func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
        log.append("\(tag)>\(action.name)")
        let changes = try next(action)
        log.append("\(tag)<\(action.name) \(changes.count)")
        return changes
    }
}

/// A dispatcher with a ``MiddlewareLogStore`` writing to `log`, created.
private func makeLogStore(log: Recorder<String>) throws -> (Dispatcher, MiddlewareLogStore) {
    let dispatcher = Dispatcher()
    try dispatcher.register(MiddlewareLogStore.self) { MiddlewareLogStore(log: log) }
    return (dispatcher, try dispatcher.store(MiddlewareLogStore.self))
}

@Suite struct DispatcherMiddlewareTests {
    @Test func middlewareRunsOutermostFirstAndItsAfterCodeInReverse() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        dispatcher.addMiddleware(TracingMiddleware(tag: "a", log: log))
        dispatcher.addMiddleware(TracingMiddleware(tag: "b", log: log))
        dispatcher.addMiddleware(TracingMiddleware(tag: "c", log: log))

        try dispatcher.dispatch(.add, payload: 1)

        #expect(
            log.values == [
                "a>middlewareAdd", "b>middlewareAdd", "c>middlewareAdd",
                "store middlewareAdd(1)",
                "c<middlewareAdd 1", "b<middlewareAdd 1", "a<middlewareAdd 1",
            ])
        #expect(store.state == [1])
    }

    @Test func aMiddlewareThatPassesTheActionOnLeavesItAsItWas() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        let seen = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                seen.append("\(action.name) \(action.payload(as: Int.self) ?? -1) \(action.error == nil)")
                return try next(action)
            })

        try dispatcher.dispatch(.add, payload: 7)

        #expect(seen.values == ["middlewareAdd 7 true"])
        #expect(store.state == [7])
        #expect(log.values == ["store middlewareAdd(7)"])
    }

    @Test func aMiddlewareCanRenameAnActionSoItReachesAnotherHandler() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                guard action.name == ActionName<Int>.add.rawValue else { return try next(action) }
                return try next(AnyAction(name: ActionName<Int>.renamed.rawValue, payload: action.payload))
            })

        try dispatcher.dispatch(.add, payload: 3)

        #expect(log.values == ["store middlewareRenamed(3)"])
        #expect(store.state == [3])
    }

    @Test func aMiddlewareCanReplaceThePayload() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                guard let value = action.payload(as: Int.self) else { return try next(action) }
                return try next(AnyAction(name: action.name, payload: value * 100))
            })

        try dispatcher.dispatch(.add, payload: 4)

        #expect(log.values == ["store middlewareAdd(400)"])
        #expect(store.state == [400])
    }

    @Test func aDroppedActionChangesNoStoreAndReturnsNoChanges() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        let observed = LockedBox(0)
        let token = store.observe { _ in observed.withValue { $0 += 1 } }
        let returned = Recorder<Int>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                let changes = try next(action)
                returned.append(changes.count)
                return changes
            })
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                action.name == ActionName<Int>.add.rawValue ? [] : try next(action)
            })

        try dispatcher.dispatch(.add, payload: 1)

        #expect(store.state == [])
        #expect(log.values == [])
        #expect(observed.value == 0)
        #expect(returned.values == [0])
        token.cancel()
    }

    @Test func aDispatchFromAMiddlewareIsQueuedBehindTheCurrentActionInOrder() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                log.append("middleware \(action.name)")
                guard action.name == ActionName<Int>.trigger.rawValue else { return try next(action) }
                try next.dispatcher.dispatch(.follow, payload: 1)
                try next.dispatcher.dispatch(.follow, payload: 2)
                log.append("middleware dispatched")
                let changes = try next(action)
                log.append("middleware after trigger")
                return changes
            })

        try dispatcher.dispatch(.trigger, payload: 0)
        let logAtReturn = log.values

        #expect(
            logAtReturn == [
                "middleware middlewareTrigger",
                "middleware dispatched",
                "store middlewareTrigger(0)",
                "middleware after trigger",
                "middleware middlewareFollow",
                "store middlewareFollow(1)",
                "middleware middlewareFollow",
                "store middlewareFollow(2)",
            ])
        #expect(store.state == [0, 1, 2])
        #expect(!dispatcher.isDispatching)
    }

    @Test func aMiddlewareReadsStoreStateBeforeAndAfterNext() throws {
        let log = Recorder<String>()
        let (dispatcher, _) = try makeLogStore(log: log)
        let reads = Recorder<[Int]>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                reads.append(try next.dispatcher.store(MiddlewareLogStore.self).state)
                let changes = try next(action)
                reads.append(try next.dispatcher.store(MiddlewareLogStore.self).state)
                return changes
            })

        try dispatcher.dispatch(.add, payload: 5)
        try dispatcher.dispatch(.add, payload: 6)

        #expect(reads.values == [[], [5], [5], [5, 6]])
    }

    @Test func nextReturnsNoChangesUnlessAMiddlewareOfTheChainObservesThem() throws {
        let log = Recorder<String>()
        let (dispatcher, _) = try makeLogStore(log: log)
        let counts = Recorder<Int>()
        let recordingCount = ClosureMiddleware(observesChanges: false) { action, next in
            let changes = try next(action)
            counts.append(changes.count)
            return changes
        }
        dispatcher.addMiddleware(recordingCount)

        try dispatcher.dispatch(.add, payload: 1)
        let observing = dispatcher.addMiddleware(ClosureMiddleware { action, next in try next(action) })
        try dispatcher.dispatch(.add, payload: 2)
        dispatcher.removeMiddleware(observing)
        try dispatcher.dispatch(.add, payload: 3)

        #expect(counts.values == [0, 1, 0])
    }

    @Test func nextReturnsOneChangePerStoreThatHandledTheActionInRegistrationOrder() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try dispatcher.register(MiddlewareLogStore.self) { MiddlewareLogStore(log: log) }
        try dispatcher.register(MiddlewareBystanderStore.self)
        try dispatcher.register(MiddlewareSumStore.self)
        // Created in the opposite order to registration: the changes follow registration order.
        let sum = try dispatcher.store(MiddlewareSumStore.self)
        _ = try dispatcher.store(MiddlewareBystanderStore.self)
        let logStore = try dispatcher.store(MiddlewareLogStore.self)
        try dispatcher.dispatch(.both, payload: 2)
        let returned = LockedBox<[AnyStoreChange]>([])
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                let changes = try next(action)
                returned.value = changes
                return changes
            })

        try dispatcher.dispatch(.both, payload: 5)

        let changes = returned.value
        try #require(changes.count == 2)
        #expect(changes[0].store(as: MiddlewareLogStore.self) === logStore)
        #expect(changes[1].store(as: MiddlewareSumStore.self) === sum)
        let logChange = try #require(changes[0].change(as: [Int].self))
        let sumChange = try #require(changes[1].change(as: Int.self))
        #expect(logChange.oldState == [2])
        #expect(logChange.newState == [2, 5])
        #expect(sumChange.oldState == 2)
        #expect(sumChange.newState == 7)
        #expect(changes.map(\.action.name) == ["middlewareBoth", "middlewareBoth"])
        #expect(changes.map { $0.action.payload(as: Int.self) } == [5, 5])
        #expect(changes.allSatisfy { !$0.isCurrentState })
    }

    @Test func aThrowingMiddlewareReachesTheCallerAndLeavesTheStoresUntouched() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        let observed = LockedBox(0)
        let token = store.observe { _ in observed.withValue { $0 += 1 } }
        dispatcher.addMiddleware(ClosureMiddleware { _, _ in throw TestError("refused") })

        #expect(throws: TestError("refused")) { try dispatcher.dispatch(.add, payload: 1) }

        #expect(store.state == [])
        #expect(log.values == [])
        #expect(observed.value == 0)
        #expect(!dispatcher.isDispatching)
        token.cancel()
    }

    @Test func aHandlersErrorReachesTheMiddlewareAsAThrowFromNext() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try dispatcher.register(MiddlewareLogStore.self) { MiddlewareLogStore(log: log) }
        try dispatcher.register(MiddlewareSumStore.self)
        let sum = try dispatcher.store(MiddlewareSumStore.self)
        let logStore = try dispatcher.store(MiddlewareLogStore.self)
        let caught = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                do {
                    return try next(action)
                } catch {
                    caught.append("\(action.name): \(error)")
                    throw error
                }
            })

        #expect(throws: TestError("sum")) { try dispatcher.dispatch(.bothFailing, payload: 3) }

        #expect(caught.values == ["middlewareBothFailing: TestError(sum)"])
        #expect(logStore.state == [], "the store whose handler returned is rolled back with the action")
        #expect(sum.state == 0, "the store whose handler threw keeps its previous state")
    }

    @Test func removingAMiddlewareReturnsTrueOnceAndItRunsNoMore() throws {
        let log = Recorder<String>()
        let (dispatcher, _) = try makeLogStore(log: log)
        let first = dispatcher.addMiddleware(TracingMiddleware(tag: "a", log: log))
        dispatcher.addMiddleware(TracingMiddleware(tag: "b", log: log))

        #expect(dispatcher.removeMiddleware(first))
        #expect(!dispatcher.removeMiddleware(first))
        try dispatcher.dispatch(.add, payload: 1)

        #expect(log.values == ["b>middlewareAdd", "store middlewareAdd(1)", "b<middlewareAdd 1"])
    }

    @Test func anActionKeepsTheChainItStartedWith() throws {
        let log = Recorder<String>()
        let (dispatcher, _) = try makeLogStore(log: log)
        let outerID = LockedBox<MiddlewareID?>(nil)
        let removed = Recorder<Bool>()
        outerID.value = dispatcher.addMiddleware(TracingMiddleware(tag: "a", log: log))
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                if action.name == ActionName<Int>.chain.rawValue, let id = outerID.value {
                    removed.append(next.dispatcher.removeMiddleware(id))
                }
                return try next(action)
            })

        try dispatcher.dispatch(.chain, payload: 1)

        #expect(removed.values == [true])
        #expect(
            log.values == [
                "a>middlewareChain",
                "store middlewareChain(1)",
                "a<middlewareChain 1",
                "store middlewareFollow(2)",
            ])
    }

    @Test func actionsQueuedByAHandlerPassThroughTheMiddleware() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        dispatcher.addMiddleware(TracingMiddleware(tag: "a", log: log))

        try dispatcher.dispatch(.chain, payload: 1)

        #expect(
            log.values == [
                "a>middlewareChain",
                "store middlewareChain(1)",
                "a<middlewareChain 1",
                "a>middlewareFollow",
                "store middlewareFollow(2)",
                "a<middlewareFollow 1",
            ])
        #expect(store.state == [1, 2])
    }

    @Test func typedAndUntypedDispatchesPassThroughTheMiddleware() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        let seen = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                seen.append("\(action.name) \(type(of: action.payload)) \(action.error.map { "\($0)" } ?? "-")")
                return try next(action)
            })

        try dispatcher.dispatch(.add, payload: 1)
        try dispatcher.dispatch(.text, payload: "four", error: TestError("carried"))
        try dispatcher.dispatch(.ping)
        try dispatcher.dispatch(AnyAction(name: "middlewareAdd", payload: 2))

        #expect(
            seen.values == [
                "middlewareAdd Int -",
                "middlewareText String TestError(carried)",
                "middlewarePing () -",
                "middlewareAdd Int -",
            ])
        #expect(store.state == [1, 4, 0, 2])
    }

    @Test func aTransformedPayloadOfTheWrongTypeIsAMismatch() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in try next(AnyAction(name: action.name, payload: "one")) })

        #expect(
            throws: FluxionError.payloadTypeMismatch(action: "middlewareAdd", expected: "Int", actual: "String")
        ) {
            try dispatcher.dispatch(.add, payload: 1)
        }
        #expect(store.state == [])
    }

    @Test func aMiddlewareErrorOnAQueuedActionGoesToOnQueuedError() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        let queuedErrors = Recorder<String>()
        dispatcher.onQueuedError = { action, error in queuedErrors.append("\(action.name): \(error)") }
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                if action.name == ActionName<Int>.follow.rawValue { throw TestError("no follow") }
                return try next(action)
            })

        try dispatcher.dispatch(.chain, payload: 1)

        #expect(queuedErrors.values == ["middlewareFollow: TestError(no follow)"])
        #expect(store.state == [1])
    }
}

@Suite(.serialized) struct DispatcherMiddlewareThreadingTests {
    @Test func addingAndRemovingMiddlewareWhileThreadsDispatchAppliesEachActionOnce() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(SequenceLedgerStore.self)
        let store = try dispatcher.store(SequenceLedgerStore.self)
        let anomalies = Recorder<String>()
        let errors = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                let changes = try next(action)
                if changes.count != 1 { anomalies.append("\(changes.count) changes") }
                return changes
            })
        let transientCalls = LockedBox(0)
        let dispatchingThreads = 3
        let perThread = 2_000
        let finished = LockedBox(0)
        let cycles = LockedBox(0)

        runOnThreads(dispatchingThreads + 1) { index in
            guard index == dispatchingThreads else {
                for sequence in 0..<perThread {
                    do {
                        try dispatcher.dispatch(
                            .sequencedTick, payload: SequencedTick(thread: index, sequence: sequence))
                    } catch {
                        errors.append("\(error)")
                    }
                }
                finished.withValue { $0 += 1 }
                return
            }
            repeat {
                let id = dispatcher.addMiddleware(
                    ClosureMiddleware { action, next in
                        transientCalls.withValue { $0 += 1 }
                        return try next(action)
                    })
                if !dispatcher.removeMiddleware(id) { errors.append("not removed") }
                if dispatcher.removeMiddleware(id) { errors.append("removed twice") }
                cycles.withValue { $0 += 1 }
            } while finished.value < dispatchingThreads
        }

        #expect(errors.values.isEmpty)
        #expect(Array(anomalies.values.prefix(5)) == [])
        #expect(store.state == SequenceLedger.complete(threads: dispatchingThreads, perThread: perThread))
        #expect(transientCalls.value <= dispatchingThreads * perThread)
        #expect(cycles.value > 0)
        #expect(!dispatcher.isDispatching)
    }
}
