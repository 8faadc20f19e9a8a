import Fluxion
import Foundation
import Testing

/// One dispatch of one thread: which thread, its sequence number, and whether
/// the thread had seen a token cancelled before dispatching it.
struct ThreadTick: Sendable {
    var thread: Int
    var sequence: Int
    var afterCancel = false
}

extension ActionName where Payload == ThreadTick {
    fileprivate static var tick: Self { "threadTick" }
    fileprivate static var outer: Self { "threadOuter" }
    fileprivate static var inner: Self { "threadInner" }
}

extension ActionName where Payload == Void {
    fileprivate static var needsSlow: Self { "threadNeedsSlow" }
    fileprivate static var announce: Self { "threadAnnounce" }
    fileprivate static var hold: Self { "threadHold" }
    fileprivate static var relay: Self { "threadRelay" }
    fileprivate static var follow: Self { "threadFollow" }
}

private let threadCount = 8

/// What the threads did: every tick counted, and the last sequence number of each thread.
struct ThreadLedger: Sendable, Equatable {
    var total = 0
    var last = Array(repeating: -1, count: threadCount)
    var outOfOrder = 0
    /// The thread whose `.outer` must be followed at once by its queued `.inner`.
    var awaitingInner: Int?
    var outers = 0
    var inners = 0
    var misplacedInners = 0

    /// Whether `total` matches the per-thread counts: a torn snapshot would break it.
    var isConsistent: Bool {
        total == last.reduce(0) { $0 + $1 + 1 }
    }
}

/// Records every tick; checks each thread's sequence numbers arrive in order.
final class ThreadLedgerStore: Store<ThreadLedger>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: ThreadLedger()) }

    override class var handlers: HandlerTable<ThreadLedger> {
        HandlerTable()
            .on(.tick) { state, action in
                let tick = action.payload
                if tick.sequence != state.last[tick.thread] + 1 { state.outOfOrder += 1 }
                state.last[tick.thread] = tick.sequence
                state.total += 1
            }
            .on(.outer, ThreadLedgerStore.outer)
            .on(.inner) { state, action in
                if state.awaitingInner != action.payload.thread { state.misplacedInners += 1 }
                state.awaitingInner = nil
                state.inners += 1
            }
    }

    func outer(_ state: inout ThreadLedger, _ action: Action<ThreadTick>) throws {
        if state.awaitingInner != nil { state.misplacedInners += 1 }
        state.awaitingInner = action.payload.thread
        state.outers += 1
        try dispatcher?.dispatch(.inner, payload: action.payload)
    }
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
            .on(.hold, ThreadHoldStore.hold)
            .on(.follow) { state, _ in state.append("follow") }
    }

    func hold(_ state: inout [String], _ action: Action<Void>) throws {
        entered.open()
        release.wait()
        state.append("hold")
    }
}

/// Created by a factory that counts its calls.
final class ThreadLazyStore: Store<Int>, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }
}

/// Handles `.relay`: opens its gate, then queues `.needsSlow`.
final class ThreadRelayStore: Store<Int>, @unchecked Sendable {  // locked by Store; `gate` is immutable
    let gate: Gate

    init(gate: Gate) {
        self.gate = gate
        super.init(initialState: 0)
    }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.relay, ThreadRelayStore.relay)
    }

    func relay(_ state: inout Int, _ action: Action<Void>) throws {
        state += 1
        gate.open()
        try dispatcher?.dispatch(.needsSlow)
    }
}

/// Created by a factory that dispatches; handles `.needsSlow`.
final class ThreadSlowStore: Store<Int>, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.needsSlow) { state, _ in state += 1 }
    }
}

@Suite(.serialized) struct ThreadingTests {
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

    @Test func aStoreNeededByRacingThreadsIsCreatedExactlyOnce() throws {
        let threadErrors = Recorder<String>()
        let racers = threadCount
        let creations = LockedBox(0)
        let arrived = ArrivalCounter()
        let dispatcher = Dispatcher()
        try dispatcher.register(ThreadLazyStore.self) {
            creations.withValue { $0 += 1 }
            // Hold the creation until every racer is about to ask for the store.
            arrived.wait(for: racers)
            return ThreadLazyStore()
        }
        let instances = Recorder<ObjectIdentifier>()

        runOnThreads(racers) { _ in
            arrived.arrive()
            do {
                instances.append(ObjectIdentifier(try dispatcher.store(ThreadLazyStore.self)))
            } catch {
                threadErrors.append("\(error)")
            }
        }

        #expect(threadErrors.values.isEmpty)
        #expect(creations.value == 1)
        #expect(instances.count == racers)
        #expect(Set(instances.values).count == 1)
        #expect(try instances.values.first == ObjectIdentifier(dispatcher.store(ThreadLazyStore.self)))
    }

    @Test func aFactoryThatDispatchesWhileAnotherThreadNeedsItsStoreDoesNotDeadlock() throws {
        let threadErrors = Recorder<String>()
        let dispatcher = Dispatcher()
        let factoryEntered = Gate()
        let turnHeld = Gate()
        try dispatcher.register(ThreadRelayStore.self) { ThreadRelayStore(gate: turnHeld) }
        _ = try dispatcher.store(ThreadRelayStore.self)
        try dispatcher.register(ThreadSlowStore.self) { [weak dispatcher] in
            factoryEntered.open()
            // The other thread holds the turn now, and its queued `.needsSlow` needs this
            // store: it must give the turn up while it waits, or this dispatch never runs.
            turnHeld.wait()
            do { try dispatcher?.dispatch(.announce) } catch { threadErrors.append("\(error)") }
            return ThreadSlowStore()
        }
        let finished = DispatchGroup()

        finished.enter()
        Thread {
            do { _ = try dispatcher.store(ThreadSlowStore.self) } catch { threadErrors.append("\(error)") }
            finished.leave()
        }.start()
        factoryEntered.wait()
        finished.enter()
        Thread {
            do { try dispatcher.dispatch(.relay) } catch { threadErrors.append("\(error)") }
            finished.leave()
        }.start()

        let outcome = finished.wait(timeout: .now() + 5)

        #expect(outcome == .success, "the creating thread and the dispatching thread wait for each other")
        guard outcome == .success else { return }
        #expect(threadErrors.values.isEmpty)
        #expect(try dispatcher.store(ThreadSlowStore.self).state == 1)
    }
}

extension ThreadingTests {
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

extension ActionName where Payload == Void {
    fileprivate static var visitFromThread: Self { "profileVisit" }
}
