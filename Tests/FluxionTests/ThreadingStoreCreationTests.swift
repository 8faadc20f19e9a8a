import Fluxion
import Foundation
import Testing

extension ActionName where Payload == Void {
    fileprivate static var needsSlow: Self { "threadNeedsSlow" }
    fileprivate static var announce: Self { "threadAnnounce" }
    fileprivate static var relay: Self { "threadRelay" }
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
        HandlerTable().route(.relay, to: ThreadRelayStore.relay)
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

// NB: nested in `ThreadingTests`, whose `.serialized` covers its nested suites: no two threading tests overlap.
extension ThreadingTests {
    @Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct ThreadingStoreCreationTests {
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

            let outcome = finished.wait(timeout: .now() + hangGuard)

            #expect(outcome == .success, "hung: the creating thread and the dispatching thread wait for each other")
            guard outcome == .success else { return }
            #expect(threadErrors.values.isEmpty)
            #expect(try dispatcher.store(ThreadSlowStore.self).state == 1)
        }
    }
}
