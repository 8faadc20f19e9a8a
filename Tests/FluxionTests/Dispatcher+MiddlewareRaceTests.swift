import Fluxion
import Foundation
import Testing

extension ActionName where Payload == Void {
    fileprivate static var slowPing: Self { "middlewareRaceSlowPing" }
    fileprivate static var fastPing: Self { "middlewareRaceFastPing" }
    fileprivate static var kick: Self { "middlewareRaceKick" }
}

/// Created by a factory that waits for the test; handles `.slowPing`.
final class MiddlewareRaceSlowStore: Store<Int>, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.slowPing) { state, _ in state += 1 }
    }
}

/// Handles `.fastPing`; `.kick` opens its gate, holding the turn, and queues `.slowPing`.
final class MiddlewareRaceFastStore: Store<Int>, @unchecked Sendable {  // locked by Store; `turnHeld` is immutable
    let turnHeld: Gate

    init(turnHeld: Gate) {
        self.turnHeld = turnHeld
        super.init(initialState: 0)
    }

    override class var handlers: HandlerTable<Int> {
        HandlerTable()
            .on(.fastPing) { state, _ in state += 1 }
            .route(.kick, to: MiddlewareRaceFastStore.kick)
    }

    func kick(_ state: inout Int, _ action: Action<Void>) throws {
        try dispatcher?.dispatch(.slowPing)
        turnHeld.open()
    }
}

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct DispatcherMiddlewareRaceTests {
    /// A dispatch whose store another thread is creating gives its turn up while it waits, but
    /// before its middleware starts: middleware always sees one action at a time, start to end.
    @Test func middlewareSeesOneActionAtATimeWhileAStoreIsCreatedElsewhere() async throws {
        let dispatcher = Dispatcher()
        let factoryStarted = Gate()
        let releaseFactory = Gate()
        try dispatcher.register(MiddlewareRaceSlowStore.self) {
            factoryStarted.open()
            releaseFactory.wait()
            return MiddlewareRaceSlowStore()
        }
        let turnHeld = Gate()
        try dispatcher.register(MiddlewareRaceFastStore.self) { MiddlewareRaceFastStore(turnHeld: turnHeld) }
        _ = try dispatcher.store(MiddlewareRaceFastStore.self)
        let log = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware(observesChanges: false) { action, next in
                log.append("enter \(action.name)")
                let changes = try next(action)
                log.append("exit \(action.name)")
                return changes
            })

        let finished = finishesInTime {
            let group = DispatchGroup()
            group.runOnNewThread {
                _ = try? dispatcher.store(MiddlewareRaceSlowStore.self)
            }
            factoryStarted.wait()
            group.runOnNewThread {
                try? dispatcher.dispatch(.kick)  // queues `.slowPing`, which then waits for its store
            }
            turnHeld.wait()
            // Runs once the other thread, waiting for the slow store, has given its turn up.
            try? dispatcher.dispatch(.fastPing)
            releaseFactory.open()
            group.wait()
        }

        try #require(finished, "the dispatches and the factory wait for each other")
        let pairs = stride(from: 0, to: log.count, by: 2).map { Array(log.values[$0..<min($0 + 2, log.count)]) }
        #expect(
            pairs.allSatisfy { $0.count == 2 && $0[0].dropFirst(6) == $0[1].dropFirst(5) },
            "each action leaves the middleware before the next enters: \(log.values)")
        #expect(log.count == 6)
        await dispatcher.waitUntilDrained()
        #expect(try dispatcher.store(MiddlewareRaceSlowStore.self).state == 1)
    }

    /// A queued action reads the chain's version, then gives its turn up while another thread creates
    /// its store; a middleware removed meanwhile is released at once, and that action does not reach it.
    @Test func aMiddlewareRemovedWhileAnActionWaitsForItsStoreIsReleasedAndNeverSeesIt() throws {
        let dispatcher = Dispatcher()
        let factoryStarted = Gate()
        let releaseFactory = Gate()
        try dispatcher.register(MiddlewareRaceSlowStore.self) {
            factoryStarted.open()
            releaseFactory.wait()
            return MiddlewareRaceSlowStore()
        }
        let turnHeld = Gate()
        try dispatcher.register(MiddlewareRaceFastStore.self) { MiddlewareRaceFastStore(turnHeld: turnHeld) }
        _ = try dispatcher.store(MiddlewareRaceFastStore.self)
        let seen = Recorder<String>()
        var capture: MiddlewareCapture? = MiddlewareCapture()
        weak let released = capture
        let id = dispatcher.addMiddleware(
            ClosureMiddleware(observesChanges: false) { [capture] action, next in
                _ = capture
                seen.append(action.name)
                return try next(action)
            })
        capture = nil
        let releasedAtRemoval = LockedBox(false)

        let finished = finishesInTime {
            let group = DispatchGroup()
            group.runOnNewThread {
                _ = try? dispatcher.store(MiddlewareRaceSlowStore.self)
            }
            factoryStarted.wait()
            group.runOnNewThread {
                try? dispatcher.dispatch(.kick)  // queues `.slowPing`, which then waits for its store
            }
            turnHeld.wait()
            // Runs once the other thread, waiting for the slow store, has given its turn up.
            try? dispatcher.dispatch(.fastPing)
            dispatcher.removeMiddleware(id)
            releasedAtRemoval.value = released == nil
            releaseFactory.open()
            group.wait()
        }

        try #require(finished, "the dispatches and the factory wait for each other")
        #expect(releasedAtRemoval.value, "released at once: no action ran through it")
        #expect(seen.values == ["middlewareRaceKick", "middlewareRaceFastPing"], "removed before .slowPing reached it")
        #expect(try dispatcher.store(MiddlewareRaceSlowStore.self).state == 1)
    }
}
