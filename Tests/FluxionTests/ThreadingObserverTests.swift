import Fluxion
import Foundation
import Testing

extension ActionName where Payload == ThreadTick {
    fileprivate static var tick: Self { "threadTick" }
}

extension ActionName where Payload == Void {
    fileprivate static var visitFromThread: Self { "profileVisit" }
}

// NB: nested in `ThreadingTests`, whose `.serialized` covers its nested suites: no two threading tests overlap.
extension ThreadingTests {
    @Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct ThreadingObserverTests {
        @Test func observersSeeEveryChangeInOrderWhileManyThreadsDispatch() throws {
            let threadErrors = Recorder<String>()
            let dispatcher = Dispatcher()
            try dispatcher.register(ThreadLedgerStore.self)
            let store = try dispatcher.store(ThreadLedgerStore.self)
            let tokenSeen = Recorder<Int>()
            let ownerSeen = Recorder<Int>()
            let owner = ObserverOwner()
            let token = store.observe { change in
                if change.newState.total != change.oldState.total + 1 { tokenSeen.append(-1) }
                tokenSeen.append(change.newState.total)
            }
            store.observe(owner: owner) { _, change in ownerSeen.append(change.newState.total) }
            let perThread = 1_000
            let churnCalls = Recorder<Int>()

            // Half the threads dispatch; the other half add and drop observers meanwhile.
            runOnThreads(threadCount) { index in
                if index % 2 == 0 {
                    for sequence in 0..<perThread {
                        do {
                            try dispatcher.dispatch(.tick, payload: ThreadTick(thread: index, sequence: sequence))
                        } catch {
                            threadErrors.append("\(error)")
                        }
                    }
                } else {
                    for round in 0..<perThread / 4 {
                        let churnOwner = ObserverOwner()
                        store.observe(owner: churnOwner) { _, change in churnCalls.append(change.newState.total) }
                        let churnToken = store.observe { change in churnCalls.append(change.newState.total) }
                        if round % 2 == 0 { churnToken.cancel() }
                        _ = store.state
                    }
                }
            }

            let total = threadCount / 2 * perThread
            #expect(threadErrors.values.isEmpty)
            #expect(store.state.total == total)
            #expect(tokenSeen.values == Array(1...total))
            #expect(ownerSeen.values == Array(1...total))
            #expect(churnCalls.values.allSatisfy { (1...total).contains($0) })
            token.cancel()
            withExtendedLifetime(owner) {}
        }

        @Test func aTokenCancelledWhileOtherThreadsDispatchHearsNothingDispatchedAfterward() throws {
            let threadErrors = Recorder<String>()
            let dispatcher = Dispatcher()
            try dispatcher.register(ThreadLedgerStore.self)
            let store = try dispatcher.store(ThreadLedgerStore.self)
            let heard = LockedBox(0)
            let heardAfterCancel = Recorder<String>()
            let cancelled = LockedBox(false)
            let token = store.observe { change in
                heard.withValue { $0 += 1 }
                if let tick = change.action.payload(as: ThreadTick.self), tick.afterCancel {
                    heardAfterCancel.append("thread \(tick.thread) #\(tick.sequence)")
                }
            }
            let perThread = 2_000

            runOnThreads(4) { index in
                for sequence in 0..<perThread {
                    if index == 0 && sequence == perThread / 4 {
                        token.cancel()
                        cancelled.value = true
                    }
                    // A thread that saw the flag dispatches after `cancel()` returned.
                    let tick = ThreadTick(thread: index, sequence: sequence, afterCancel: cancelled.value)
                    do {
                        try dispatcher.dispatch(.tick, payload: tick)
                    } catch {
                        threadErrors.append("\(error)")
                    }
                }
            }

            #expect(threadErrors.values.isEmpty)
            #expect(token.isCancelled)
            #expect(heardAfterCancel.values.isEmpty)
            #expect(heard.value >= perThread / 4)
            #expect(heard.value < 4 * perThread)
            #expect(store.state.total == 4 * perThread)
        }

        @Test func anObserverAskingForTheCurrentStateWhileAnotherThreadDispatchesHearsEveryStateInOrder() throws {
            let dispatcher = Dispatcher()
            try dispatcher.register(ProfileStore.self)
            let store = try dispatcher.store(ProfileStore.self)
            let started = Gate()
            let finished = DispatchGroup()
            finished.enter()
            Thread {
                started.open()
                for _ in 0..<10_000 { try? dispatcher.dispatch(.visitFromThread) }
                finished.leave()
            }.start()
            started.wait()

            let seen = Recorder<(old: Int, new: Int)>()
            let owner = ObserverOwner()
            store.observe(owner: owner, sendingCurrentState: true) { _, change in
                seen.append((change.oldState.visits, change.newState.visits))
            }
            finished.wait()

            let values = seen.values
            #expect(values.first.map { $0.old == $0.new } == true)
            let gaps = zip(values, values.dropFirst()).filter { $0.new != $1.old }
            #expect(gaps.isEmpty, "each change starts where the previous call ended")
            #expect(values.last?.new == 10_000)
        }
    }
}
