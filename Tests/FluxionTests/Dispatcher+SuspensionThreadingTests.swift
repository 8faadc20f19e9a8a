import Fluxion
import Testing

@Suite(.serialized, .timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct DispatcherSuspensionThreadingTests {
    @Test func dispatchesFromFourThreadsWhileSuspendedRunOnceEachInPerThreadOrder() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(SequenceLedgerStore.self)
        let store = try dispatcher.store(SequenceLedgerStore.self)
        let errors = Recorder<String>()
        let threads = 4
        let perThread = 2_000

        let suspension = dispatcher.suspend()
        runOnThreads(threads) { index in
            for sequence in 0..<perThread {
                do {
                    try dispatcher.dispatch(.sequencedTick, payload: SequencedTick(thread: index, sequence: sequence))
                } catch {
                    errors.append("\(error)")
                }
            }
        }

        #expect(store.state == SequenceLedger())
        suspension.release()

        #expect(errors.values.isEmpty)
        #expect(store.state == SequenceLedger.complete(threads: threads, perThread: perThread))
        #expect(!dispatcher.isDispatching)
    }

    @Test func releasingFromAnotherThreadWhileThreadsDispatchLosesNoAction() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(SequenceLedgerStore.self)
        let store = try dispatcher.store(SequenceLedgerStore.self)
        let errors = Recorder<String>()
        let threads = 3
        let perThread = 2_000
        let halfway = ArrivalCounter()
        let suspension = dispatcher.suspend()

        runOnThreads(threads + 1) { index in
            guard index < threads else {
                halfway.wait(for: threads)
                suspension.release()
                return
            }
            for sequence in 0..<perThread {
                if sequence == perThread / 2 { halfway.arrive() }
                do {
                    try dispatcher.dispatch(.sequencedTick, payload: SequencedTick(thread: index, sequence: sequence))
                } catch {
                    errors.append("\(error)")
                }
            }
        }

        #expect(errors.values.isEmpty)
        #expect(store.state == SequenceLedger.complete(threads: threads, perThread: perThread))
        #expect(!dispatcher.isSuspended)
    }
}
