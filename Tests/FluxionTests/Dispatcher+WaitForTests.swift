import Fluxion
import Foundation
import Testing

extension ActionName where Payload == Void {
    fileprivate static var waitSelf: Self { "waitForSelf" }
    fileprivate static var waitCycle: Self { "waitForCycle" }
    fileprivate static var waitGhost: Self { "waitForGhost" }
    fileprivate static var waitBystander: Self { "waitForBystander" }
    fileprivate static var waitFromAnotherThread: Self { "waitForFromAnotherThread" }
}

struct CycleValue: Sendable, Equatable {
    var before = 0
    var after = 0
}

/// Waits for itself on `.waitSelf`, and for ``BStore`` on `.waitCycle`.
///
/// Named `AStore` so that cycle paths read as in the documentation.
final class AStore: Store<CycleValue>, @unchecked Sendable {  // locked by Store
    let log: Recorder<String>

    init(log: Recorder<String>) {
        self.log = log
        super.init(initialState: CycleValue())
    }

    override class var handlers: HandlerTable<CycleValue> {
        HandlerTable()
            .route(.waitSelf, to: AStore.waitForSelf)
            .route(.waitCycle, to: AStore.waitForB)
    }

    func waitForSelf(_ state: inout CycleValue, _ action: Action<Void>) throws {
        state.before += 1
        try waitFor(AStore.self)
        state.after += 1
        log.append("A after waitFor")
    }

    func waitForB(_ state: inout CycleValue, _ action: Action<Void>) throws {
        state.before += 1
        try waitFor(BStore.self)
        state.after += 1
        log.append("A after waitFor")
    }
}

/// Waits for ``AStore`` on `.waitCycle`.
final class BStore: Store<CycleValue>, @unchecked Sendable {  // locked by Store
    let log: Recorder<String>

    init(log: Recorder<String>) {
        self.log = log
        super.init(initialState: CycleValue())
    }

    override class var handlers: HandlerTable<CycleValue> {
        HandlerTable().route(.waitCycle, to: BStore.waitForA)
    }

    func waitForA(_ state: inout CycleValue, _ action: Action<Void>) throws {
        state.before += 1
        try waitFor(AStore.self)
        state.after += 1
        log.append("B after waitFor")
    }
}

/// Waits for ``AStore`` on `.waitCycle`, outside the cycle that follows.
final class CStore: Store<CycleValue>, @unchecked Sendable {  // locked by Store
    let log: Recorder<String>

    init(log: Recorder<String>) {
        self.log = log
        super.init(initialState: CycleValue())
    }

    override class var handlers: HandlerTable<CycleValue> {
        HandlerTable().route(.waitCycle, to: CStore.waitForA)
    }

    func waitForA(_ state: inout CycleValue, _ action: Action<Void>) throws {
        state.before += 1
        try waitFor(AStore.self)
        state.after += 1
        log.append("C after waitFor")
    }
}

/// Never registered.
final class WaitGhostStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }
}

/// Waits on `.waitGhost` for the unregistered ``WaitGhostStore``, and on
/// `.waitBystander` for ``SourceStore``, which does not handle that action.
final class WaitSeekerStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable()
            .route(.waitGhost, to: WaitSeekerStore.seekGhost)
            .route(.waitBystander, to: WaitSeekerStore.seekBystander)
    }

    func seekGhost(_ state: inout Int, _ action: Action<Void>) throws {
        state += 1
        try waitFor(WaitGhostStore.self)
        state += 100
    }

    func seekBystander(_ state: inout Int, _ action: Action<Void>) throws {
        let source = try waitFor(SourceStore.self)
        state = source.state.value + 1
    }
}

/// On `.waitFromAnotherThread`, asks another thread to wait for ``SourceStore`` while its own handler
/// runs, and waits for that thread: only the thread holding the dispatch turn may `waitFor`.
final class WaitAcrossThreadsStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    let outcomes = Recorder<String>()

    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().route(.waitFromAnotherThread, to: WaitAcrossThreadsStore.askAnotherThread)
    }

    func askAnotherThread(_ state: inout Int, _ action: Action<Void>) throws {
        let done = Gate()
        Thread { [self] in
            do {
                _ = try waitFor(SourceStore.self)
                outcomes.append("waited")
            } catch {
                outcomes.append("\(error)")
            }
            done.open()
        }.start()
        done.wait()
        state += 1
    }
}

@Suite(.onThreadsOfItsOwn) struct DispatcherWaitForTests {
    private func register(
        _ dispatcher: Dispatcher,
        _ types: [Any.Type],
        log: Recorder<String>
    ) throws {
        for type in types {
            switch type {
            case is SourceStore.Type: try dispatcher.register(SourceStore.self) { SourceStore(log: log) }
            case is EarlyWaiterStore.Type: try dispatcher.register(EarlyWaiterStore.self) { EarlyWaiterStore(log: log) }
            case is LateWaiterStore.Type: try dispatcher.register(LateWaiterStore.self) { LateWaiterStore(log: log) }
            case is AStore.Type: try dispatcher.register(AStore.self) { AStore(log: log) }
            case is BStore.Type: try dispatcher.register(BStore.self) { BStore(log: log) }
            case is CStore.Type: try dispatcher.register(CStore.self) { CStore(log: log) }
            default: Issue.record("no registration for \(type)")
            }
        }
    }

    @Test func waitForOnAStoreRegisteredLaterRunsItFirst() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try register(dispatcher, [EarlyWaiterStore.self, SourceStore.self], log: log)

        try dispatcher.dispatch(.setSource, payload: 7)

        #expect(log.values == ["source", "early"])
        #expect(try dispatcher.store(EarlyWaiterStore.self).state.seen == 7)
        #expect(try dispatcher.store(SourceStore.self).state == SourceValue(value: 7, calls: 1))
    }

    @Test func waitForOnAStoreRegisteredEarlierSeesItsNewState() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try register(dispatcher, [SourceStore.self, LateWaiterStore.self], log: log)

        try dispatcher.dispatch(.setSource, payload: 9)

        #expect(log.values == ["source", "late"])
        #expect(try dispatcher.store(LateWaiterStore.self).state.seen == 9)
        #expect(try dispatcher.store(SourceStore.self).state == SourceValue(value: 9, calls: 1))
    }

    @Test func severalWaitersRunTheWaitedStoreOnce() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try register(dispatcher, [EarlyWaiterStore.self, SourceStore.self, LateWaiterStore.self], log: log)

        try dispatcher.dispatch(.setSource, payload: 3)
        try dispatcher.dispatch(.setSource, payload: 4)

        #expect(log.values == ["source", "early", "late", "source", "early", "late"])
        #expect(try dispatcher.store(SourceStore.self).state == SourceValue(value: 4, calls: 2))
        #expect(try dispatcher.store(EarlyWaiterStore.self).state.seen == 4)
        #expect(try dispatcher.store(LateWaiterStore.self).state.seen == 4)
    }

    @Test func anErrorOfTheWaitedStoreReachesTheWaiterWhichRollsBack() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try register(dispatcher, [EarlyWaiterStore.self, SourceStore.self], log: log)
        try dispatcher.dispatch(.setSource, payload: 1)

        #expect(throws: TestError("negative source")) {
            try dispatcher.dispatch(.setSource, payload: -1)
        }

        #expect(log.values == ["source", "early", "source"])
        #expect(try dispatcher.store(EarlyWaiterStore.self).state.seen == 1)
        #expect(try dispatcher.store(SourceStore.self).state == SourceValue(value: 1, calls: 1))
    }

    @Test func waitForOutsideADispatchThrows() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try register(dispatcher, [SourceStore.self, LateWaiterStore.self], log: log)
        let waiter = try dispatcher.store(LateWaiterStore.self)

        #expect(throws: FluxionError.waitForOutsideDispatch("SourceStore")) {
            try dispatcher.waitFor(SourceStore.self)
        }
        #expect(throws: FluxionError.waitForOutsideDispatch("SourceStore")) {
            try waiter.waitFor(SourceStore.self)
        }
        #expect(log.values.isEmpty)
    }

    @Test func waitForFromAnObserverThrowsOutsideDispatch() throws {
        let log = Recorder<String>()
        let errors = Recorder<FluxionError>()
        let dispatcher = Dispatcher()
        try register(dispatcher, [SourceStore.self], log: log)
        let source = try dispatcher.store(SourceStore.self)
        let token = source.observe { [weak dispatcher] _ in
            do {
                try dispatcher?.waitFor(SourceStore.self)
                errors.append(.waitForOutsideDispatch("no error"))
            } catch let error as FluxionError {
                errors.append(error)
            } catch {
                Issue.record(error)
            }
        }

        try dispatcher.dispatch(.setSource, payload: 1)

        #expect(errors.values == [.waitForOutsideDispatch("SourceStore")])
        token.cancel()
    }

    @Test func waitForAnUnregisteredStoreThrowsAndRollsBack() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(WaitSeekerStore.self)

        let error = FluxionError.storeNotRegistered(
            "WaitGhostStore", waitingStore: "WaitSeekerStore", action: "waitForGhost")
        #expect(throws: error) { try dispatcher.dispatch(.waitGhost) }
        #expect(
            error.description
                == "Store WaitGhostStore is not registered with this dispatcher; WaitSeekerStore waited for it while handling 'waitForGhost'."
        )
        #expect(try dispatcher.store(WaitSeekerStore.self).state == 0)
    }

    @Test func waitForAStoreThatDoesNotHandleTheActionReturnsAtOnce() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try dispatcher.register(WaitSeekerStore.self)
        try register(dispatcher, [SourceStore.self], log: log)

        try dispatcher.dispatch(.waitBystander)

        #expect(try dispatcher.store(WaitSeekerStore.self).state == 1)
        #expect(log.values.isEmpty)
    }

    @Test func aStoreWaitingForItselfIsACycle() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try register(dispatcher, [AStore.self], log: log)

        #expect(throws: FluxionError.waitForCycle(["AStore", "AStore"])) {
            try dispatcher.dispatch(.waitSelf)
        }

        #expect(log.values.isEmpty)
        #expect(try dispatcher.store(AStore.self).state == CycleValue())
    }

    @Test func storesWaitingForEachOtherAreACycleThatNamesThePath() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try register(dispatcher, [AStore.self, BStore.self], log: log)

        let error = #expect(throws: FluxionError.self) {
            try dispatcher.dispatch(.waitCycle)
        }

        #expect(error == .waitForCycle(["AStore", "BStore", "AStore"]))
        #expect(error?.description.contains("AStore → BStore → AStore") == true)
        // Neither handler's work after `waitFor` ran, and both stores rolled back.
        #expect(log.values.isEmpty)
        #expect(try dispatcher.store(AStore.self).state == CycleValue())
        #expect(try dispatcher.store(BStore.self).state == CycleValue())
    }

    @Test func aCycleStartingFromTheLaterStoreNamesItFirst() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try register(dispatcher, [BStore.self, AStore.self], log: log)

        #expect(throws: FluxionError.waitForCycle(["BStore", "AStore", "BStore"])) {
            try dispatcher.dispatch(.waitCycle)
        }
        #expect(log.values.isEmpty)
    }

    @Test func aCyclePathStartsAtTheStoreThatClosesIt() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try register(dispatcher, [CStore.self, AStore.self, BStore.self], log: log)

        // C waits for A, A for B, B for A: C is a waiter, not part of the cycle.
        #expect(throws: FluxionError.waitForCycle(["AStore", "BStore", "AStore"])) {
            try dispatcher.dispatch(.waitCycle)
        }
        #expect(log.values.isEmpty)
        #expect(try dispatcher.store(CStore.self).state == CycleValue())
    }

    @Test func theDispatcherWorksAfterACycle() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try register(dispatcher, [AStore.self, BStore.self, SourceStore.self, LateWaiterStore.self], log: log)
        #expect(throws: FluxionError.self) {
            try dispatcher.dispatch(.waitCycle)
        }

        try dispatcher.dispatch(.setSource, payload: 5)

        #expect(!dispatcher.isDispatching)
        #expect(try dispatcher.store(LateWaiterStore.self).state.seen == 5)
    }

    @Test(.timeLimit(.minutes(10))) func waitForFromAnotherThreadWhileAHandlerRunsThrowsOutsideDispatch() throws {
        // NB: the turn is held, and a handler runs, but not on the asking thread: it must not touch the transaction.
        let dispatcher = Dispatcher()
        try register(dispatcher, [SourceStore.self], log: Recorder<String>())
        try dispatcher.register(WaitAcrossThreadsStore.self)
        let store = try dispatcher.store(WaitAcrossThreadsStore.self)

        try dispatcher.dispatch(.waitFromAnotherThread)

        #expect(store.outcomes.values == ["\(FluxionError.waitForOutsideDispatch("SourceStore"))"])
        #expect(store.state == 1)
    }
}
