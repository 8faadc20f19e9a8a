import Fluxion
import Foundation
import Testing

extension ActionName where Payload == ThreadTick {
    fileprivate static var tick: Self { "threadTick" }
}

extension ActionName where Payload == Void {
    fileprivate static var hold: Self { "threadHold" }
    fileprivate static var follow: Self { "threadFollow" }
}

/// Blocks in its `.hold` handler until the test opens `release`.
final class ThreadHoldStore: Store<[String]>, @unchecked Sendable {  // locked by Store
    let entered: Gate
    let release: Gate

    init(entered: Gate, release: Gate) {
        self.entered = entered
        self.release = release
        super.init(initialState: [])
    }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable()
            .route(.hold, to: ThreadHoldStore.hold)
            .on(.follow) { state, _ in state.append("follow") }
    }

    func hold(_ state: inout [String], _ action: Action<Void>) throws {
        entered.open()
        release.wait()
        state.append("hold")
    }
}

@Suite(.serialized, .timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct ThreadingTests {
    private static let dispatchesPerThread = 10_000

    @Test func dispatchesFromManyThreadsApplyEachActionOnceInPerThreadOrder() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(ThreadLedgerStore.self)
        let store = try dispatcher.store(ThreadLedgerStore.self)
        let writersDone = LockedBox(0)
        let readerFailures = Recorder<String>()
        let dispatchErrors = Recorder<String>()
        let readerCount = 2
        let perThread = Self.dispatchesPerThread

        runOnThreads(threadCount + readerCount) { index in
            if index < threadCount {
                for sequence in 0..<perThread {
                    do {
                        try dispatcher.dispatch(.tick, payload: ThreadTick(thread: index, sequence: sequence))
                    } catch {
                        dispatchErrors.append("\(error)")
                    }
                }
                writersDone.withValue { $0 += 1 }
            } else {
                var previous = 0
                var reads = 0
                while writersDone.value < threadCount || reads == 0 {
                    let snapshot = store.state
                    reads += 1
                    if !snapshot.isConsistent { readerFailures.append("torn snapshot: \(snapshot.total)") }
                    if snapshot.total < previous { readerFailures.append("went back: \(previous)→\(snapshot.total)") }
                    previous = snapshot.total
                }
            }
        }

        let final = store.state
        #expect(dispatchErrors.values.isEmpty)
        #expect(final.total == threadCount * perThread)
        #expect(final.outOfOrder == 0)
        #expect(final.last == Array(repeating: perThread - 1, count: threadCount))
        #expect(Array(readerFailures.values.prefix(5)) == [])
        #expect(!dispatcher.isDispatching)
    }

    @Test func queuedActionsFromHandlersRunRightAfterTheirActionUnderContention() throws {
        let threadErrors = Recorder<String>()
        let dispatcher = Dispatcher()
        try dispatcher.register(ThreadLedgerStore.self)
        let perThread = 1_000

        runOnThreads(threadCount) { index in
            for sequence in 0..<perThread {
                do {
                    try dispatcher.dispatch(.outer, payload: ThreadTick(thread: index, sequence: sequence))
                } catch {
                    threadErrors.append("\(error)")
                }
            }
        }

        let final = try dispatcher.store(ThreadLedgerStore.self).state
        #expect(threadErrors.values.isEmpty)
        #expect(final.outers == threadCount * perThread)
        #expect(final.inners == threadCount * perThread)
        #expect(final.misplacedInners == 0)
        #expect(final.awaitingInner == nil)
    }

    @Test func isDispatchingIsTrueWhileAHandlerRunsOnAnotherThread() throws {
        let threadErrors = Recorder<String>()
        let entered = Gate()
        let release = Gate()
        let dispatcher = Dispatcher()
        try dispatcher.register(ThreadHoldStore.self) { ThreadHoldStore(entered: entered, release: release) }
        let store = try dispatcher.store(ThreadHoldStore.self)
        let finished = DispatchGroup()
        let followerReady = Gate()

        #expect(!dispatcher.isDispatching)
        finished.enter()
        Thread {
            do { try dispatcher.dispatch(.hold) } catch { threadErrors.append("\(error)") }
            finished.leave()
        }.start()
        entered.wait()

        #expect(dispatcher.isDispatching)
        // Reading state never waits for the dispatch: it is the last committed snapshot.
        #expect(store.state.isEmpty)

        // A dispatch from a third thread waits for its turn.
        finished.enter()
        Thread {
            followerReady.open()
            do { try dispatcher.dispatch(.follow) } catch { threadErrors.append("\(error)") }
            finished.leave()
        }.start()
        followerReady.wait()
        #expect(dispatcher.isDispatching)
        release.open()
        finished.wait()

        #expect(threadErrors.values.isEmpty)
        #expect(!dispatcher.isDispatching)
        #expect(store.state == ["hold", "follow"])
    }
}
