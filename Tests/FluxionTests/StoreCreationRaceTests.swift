import Fluxion
import Foundation
import Testing

// A store being created on one thread while another thread's dispatch needs it.

extension ActionName where Payload == Void {
    fileprivate static var start: Self { "raceStart" }
    fileprivate static var needsCreated: Self { "raceNeedsCreated" }
    fileprivate static var later: Self { "raceLater" }
    fileprivate static var other: Self { "raceOther" }
    fileprivate static var fromFactory: Self { "raceFromFactory" }
    fileprivate static var askInHandler: Self { "raceAskInHandler" }
}

/// Appends the name of each action it handles to a shared log; `.start` queues two more.
final class RaceLogStore: Store<Int>, @unchecked Sendable {  // locked by Store; `log` and the gates are immutable
    let log: Recorder<String>
    let started: Gate
    let onOther: @Sendable () -> Void

    init(log: Recorder<String>, started: Gate, onOther: @escaping @Sendable () -> Void = {}) {
        self.log = log
        self.started = started
        self.onOther = onOther
        super.init(initialState: 0)
    }

    override class var handlers: HandlerTable<Int> {
        HandlerTable()
            .route(.start, to: RaceLogStore.start)
            .route(.later, to: RaceLogStore.later)
            .route(.other, to: RaceLogStore.other)
            .on(.fromFactory) { state, _ in state += 1 }
    }

    func start(_ state: inout Int, _ action: Action<Void>) throws {
        log.append("start")
        try dispatcher?.dispatch(.needsCreated)
        try dispatcher?.dispatch(.later)
        started.open()
    }

    func later(_ state: inout Int, _ action: Action<Void>) throws {
        log.append("later")
        state += 1
    }

    func other(_ state: inout Int, _ action: Action<Void>) throws {
        log.append("other")
        onOther()
    }
}

/// Created by a slow factory; handles `.needsCreated`.
final class RaceSlowStore: Store<Int>, @unchecked Sendable {  // locked by Store; `log` is immutable
    let log: Recorder<String>

    init(log: Recorder<String> = Recorder()) {
        self.log = log
        super.init(initialState: 0)
    }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().route(.needsCreated, to: RaceSlowStore.needsCreated)
    }

    func needsCreated(_ state: inout Int, _ action: Action<Void>) throws {
        log.append("needsCreated")
        state += 1
    }
}

/// Asks the dispatcher for ``RaceSlowStore`` from inside its handler.
final class RaceAskingStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().route(.askInHandler, to: RaceAskingStore.ask)
    }

    func ask(_ state: inout Int, _ action: Action<Void>) throws {
        state = try dispatcher?.store(RaceSlowStore.self).state ?? -1
    }
}

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct StoreCreationRaceTests {
    /// The first dispatch queues `.needsCreated` then `.later`; `.needsCreated` needs a store
    /// another thread is creating, so the dispatch gives up its turn, and a third thread's
    /// `.other` runs meanwhile. The queued `.later` must still follow `.needsCreated`.
    @Test func actionsQueuedBeforeAYieldedTurnStayInOrder() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        let started = Gate()
        let factoryEntered = Gate()
        let releaseFactory = Gate()
        try dispatcher.register(RaceLogStore.self) {
            RaceLogStore(log: log, started: started, onOther: releaseFactory.open)
        }
        _ = try dispatcher.store(RaceLogStore.self)
        try dispatcher.register(RaceSlowStore.self) {
            factoryEntered.open()
            releaseFactory.wait()
            log.append("created")
            return RaceSlowStore(log: log)
        }

        let finished = finishesInTime {
            let group = DispatchGroup()
            group.runOnNewThread {
                _ = try? dispatcher.store(RaceSlowStore.self)
            }
            factoryEntered.wait()
            group.runOnNewThread {
                try? dispatcher.dispatch(.start)
            }
            started.wait()
            // Runs only once the first dispatch has given up its turn; it lets the factory finish.
            try? dispatcher.dispatch(.other)
            group.wait()
        }

        try #require(finished, "the dispatches and the factory wait for each other")
        #expect(log.values == ["start", "other", "created", "needsCreated", "later"])
        #expect(try dispatcher.store(RaceSlowStore.self).state == 1)
        #expect(try dispatcher.store(RaceLogStore.self).state == 1)
    }

    /// A handler asks for a store whose factory, on another thread, dispatches: the
    /// factory's action queues behind the handler's instead of waiting for its turn.
    @Test func aFactoryDispatchingWhileAHandlerWaitsForItsStoreIsQueued() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        let factoryEntered = Gate()
        let handlerRunning = Gate()
        let sawCurrentState = LockedBox(false)
        let tokens = Recorder<ObservationToken>()
        try dispatcher.register(RaceLogStore.self) { RaceLogStore(log: log, started: Gate()) }
        try dispatcher.register(RaceHandlerGateStore.self) { RaceHandlerGateStore(gate: handlerRunning) }
        try dispatcher.register(RaceAskingStore.self)
        _ = try dispatcher.store(RaceLogStore.self)
        _ = try dispatcher.store(RaceHandlerGateStore.self)
        _ = try dispatcher.store(RaceAskingStore.self)
        try dispatcher.register(RaceSlowStore.self) { [weak dispatcher] in
            factoryEntered.open()
            handlerRunning.wait()
            guard let dispatcher else { return RaceSlowStore() }
            try? dispatcher.dispatch(.fromFactory)
            if let logStore = try? dispatcher.store(RaceLogStore.self) {
                tokens.append(
                    logStore.observe(sendingCurrentState: true) { change in
                        if change.isCurrentState { sawCurrentState.value = true }
                    })
            }
            return RaceSlowStore()
        }

        let finished = finishesInTime {
            let group = DispatchGroup()
            group.runOnNewThread {
                _ = try? dispatcher.store(RaceSlowStore.self)
            }
            factoryEntered.wait()
            try? dispatcher.dispatch(.askInHandler)
            group.wait()
        }

        try #require(finished, "the handler and the factory wait for each other")
        #expect(try dispatcher.store(RaceLogStore.self).state == 1, "the factory's action ran")
        #expect(try dispatcher.store(RaceAskingStore.self).state == 0)
        #expect(sawCurrentState.value)
        #expect(!dispatcher.isDispatching)
    }
}

/// Opens its gate when `.askInHandler` reaches it, before ``RaceAskingStore`` (registered later) asks for
/// the slow store.
final class RaceHandlerGateStore: Store<Int>, @unchecked Sendable {  // locked by Store; `gate` is immutable
    let gate: Gate

    init(gate: Gate) {
        self.gate = gate
        super.init(initialState: 0)
    }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().route(.askInHandler, to: RaceHandlerGateStore.open)
    }

    func open(_ state: inout Int, _ action: Action<Void>) throws {
        gate.open()
    }
}
