import Fluxion
import Testing

extension ActionName where Payload == Int {
    fileprivate static var add: Self { "middlewareAdd" }
    fileprivate static var follow: Self { "middlewareFollow" }
}

extension ActionName where Payload == Void {
    fileprivate static var ping: Self { "middlewarePing" }
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

    @Test func anActionPassedOnUnderItsNameReachesTheStoresItWasDispatchedTo() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                // NB: a store of the action's name, registered while the action goes through the chain.
                if !dispatcher.isRegistered(MiddlewareBystanderStore.self) {
                    try dispatcher.register(MiddlewareBystanderStore.self)
                }
                return try next(action)
            })

        try dispatcher.dispatch(.add, payload: 1)
        let bystander = try dispatcher.store(MiddlewareBystanderStore.self)
        #expect(bystander.state == 0, "registered after the action was dispatched: not one of its stores")

        try dispatcher.dispatch(.add, payload: 2)
        #expect(bystander.state == 2)
        #expect(store.state == [1, 2])
    }

    @Test func aRenamedActionReachesTheStoresOfItsNewName() throws {
        let log = Recorder<String>()
        let (dispatcher, store) = try makeLogStore(log: log)
        try dispatcher.register(MiddlewareSumStore.self)
        let sum = try dispatcher.store(MiddlewareSumStore.self)
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                try next(AnyAction(name: ActionName<Int>.both.rawValue, payload: action.payload))
            })

        try dispatcher.dispatch(.add, payload: 5)

        #expect(sum.state == 5)
        #expect(store.state == [5], "the log store handles both names")
    }

    @Test func aChainEmptiedBeforeTheActionReachesItIsSkipped() throws {
        let dispatcher = Dispatcher()
        let seen = Recorder<String>()
        let id = dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                seen.append(action.name)
                return try next(action)
            })
        // NB: the store is created on the action's first need, after the chain was looked up.
        try dispatcher.register(MiddlewareSumStore.self) {
            dispatcher.removeMiddleware(id)
            return MiddlewareSumStore()
        }

        try dispatcher.dispatch(.both, payload: 4)
        try dispatcher.dispatch(.both, payload: 5)

        #expect(seen.values == [], "the chain was empty by the time the action reached it")
        #expect(try dispatcher.store(MiddlewareSumStore.self).state == 9)
    }

    @Test func aChainChangedBeforeTheActionReachesItIsRunAsItIsThen() throws {
        let dispatcher = Dispatcher()
        let seen = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                seen.append("first \(action.name)")
                return try next(action)
            })
        try dispatcher.register(MiddlewareSumStore.self) {
            dispatcher.addMiddleware(
                ClosureMiddleware { action, next in
                    seen.append("second \(action.name)")
                    return try next(action)
                })
            return MiddlewareSumStore()
        }

        try dispatcher.dispatch(.both, payload: 4)

        #expect(seen.values == ["first middlewareBoth", "second middlewareBoth"])
        #expect(try dispatcher.store(MiddlewareSumStore.self).state == 4)
    }
}
