import Fluxion
import Testing

@Suite(.serialized, .timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct DispatcherMiddlewareThreadingTests {
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
