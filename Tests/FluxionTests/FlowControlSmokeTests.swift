import Fluxion
import Testing

struct PassThrough: Middleware {
    let log: Recorder<String>
    let tag: String
    func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
        log.append("\(tag)>\(action.name)")
        let changes = try next(action)
        log.append("\(tag)<\(changes.count)")
        return changes
    }
}

@Suite struct FlowControlSmokeTests {
    @Test func smoke() async throws {
        let (dispatcher, store) = try makeCounterStore()
        let log = Recorder<String>()
        let lines = Recorder<String>()
        dispatcher.add(PassThrough(log: log, tag: "a"))
        let b = dispatcher.add(PassThrough(log: log, tag: "b"))
        dispatcher.add(LoggingMiddleware { lines.append($0) })
        try dispatcher.dispatch(.counterAdd, payload: 2)
        #expect(log.values == ["a>supportCounterAdd", "b>supportCounterAdd", "b<1", "a<1"])
        #expect(dispatcher.remove(b))
        print(lines.values)

        let seen = Recorder<String>()
        let token = store.observe { seen.append("\($0.action.name) \($0.oldState.total)->\($0.newState.total)") }
        try dispatcher.batch { batch in
            try batch.dispatch(.counterAdd, payload: 1)
            try batch.dispatch(.counterAdd, payload: 1)
        }
        #expect(seen.values == ["Fluxion.batch 2->4"])
        #expect(throws: TestError("counterFail")) {
            try dispatcher.batch { batch in
                try batch.dispatch(.counterAdd, payload: 1)
                try? batch.dispatch(.counterFail)
            }
        }
        #expect(store.state.total == 4)
        #expect(seen.count == 1)

        let suspension = dispatcher.suspend()
        try dispatcher.dispatch(.counterAdd, payload: 10)
        #expect(store.state.total == 4)
        try dispatcher.dispatchExclusively(.counterAdd, payload: 100)
        #expect(store.state.total == 104)
        suspension.release()
        await dispatcher.waitUntilDrained()
        #expect(store.state.total == 114)
        token.cancel()
    }
}
