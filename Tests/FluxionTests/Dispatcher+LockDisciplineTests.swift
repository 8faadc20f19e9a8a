import Fluxion
import Foundation
import Testing

// User code that runs when Fluxion releases something — a payload's or a
// closure's captured object's `deinit` — must never run under a Fluxion lock:
// here each such `deinit` calls back into the dispatcher, which takes its lock
// and would deadlock if the release happened while it was held.

extension ActionName where Payload == DeinitProbe {
    fileprivate static var probe: Self { "disciplineProbe" }
}

extension ActionName where Payload == Int {
    fileprivate static var queueProbes: Self { "disciplineQueueProbes" }
}

/// Queues probes from a handler; counts the probes it handles.
final class ProbeQueueStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable()
            .on(.probe) { state, _ in state += 1 }
            .route(.queueProbes, to: ProbeQueueStore.queueProbes)
    }

    func queueProbes(_ state: inout Int, _ action: Action<Int>) throws {
        guard let dispatcher else { return }
        for _ in 0..<action.payload {
            try dispatcher.dispatch(.probe, payload: DeinitProbe { _ = dispatcher.isDispatching })
        }
    }
}

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct DispatcherLockDisciplineTests {
    @Test func queuedPayloadsAreReleasedOutsideTheDispatcherLock() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(ProbeQueueStore.self)

        let finished = finishesInTime {
            try? dispatcher.dispatch(.queueProbes, payload: 3)
        }

        try #require(finished, "a queued payload's deinit ran under the dispatcher's lock")
        #expect(try dispatcher.store(ProbeQueueStore.self).state == 3)
    }

    @Test func aReplacedHookIsReleasedOutsideTheDispatcherLock() throws {
        let dispatcher = Dispatcher()
        let released = LockedBox(false)
        do {
            let probe = DeinitProbe {
                _ = dispatcher.isDispatching
                released.value = true
            }
            dispatcher.onDeadLetter = { _ in withExtendedLifetime(probe) {} }
            dispatcher.onQueuedError = { _, _ in withExtendedLifetime(probe) {} }
        }

        let finished = finishesInTime {
            dispatcher.onDeadLetter = nil
            dispatcher.onQueuedError = nil
        }

        try #require(finished, "a replaced hook's captures were released under the dispatcher's lock")
        #expect(released.value)
    }

    @Test func aReplacedPersistenceHookIsReleasedOutsideFluxionLocks() throws {
        let dispatcher = Dispatcher()
        let released = LockedBox(false)
        do {
            let probe = DeinitProbe {
                _ = dispatcher.onPersistenceError
                released.value = true
            }
            dispatcher.onPersistenceError = { _ in withExtendedLifetime(probe) {} }
        }

        let finished = finishesInTime { dispatcher.onPersistenceError = nil }

        try #require(finished, "a replaced hook's captures were released under the persistence lock")
        #expect(released.value)
    }
}
