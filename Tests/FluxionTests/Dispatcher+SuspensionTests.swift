import Fluxion
import Foundation
import Testing

extension ActionName where Payload == String {
    fileprivate static var note: Self { "suspensionNote" }
}

extension ActionName where Payload == Void {
    fileprivate static var bell: Self { "suspensionBell" }
    fileprivate static var fail: Self { "suspensionFail" }
    fileprivate static var releaseHeld: Self { "suspensionReleaseHeld" }
    fileprivate static var hold: Self { "suspensionHold" }
}

/// Lists the notes it handled; `.bell` appends "bell"; `.fail` throws.
final class SuspensionNotesStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable()
            .on(.note) { state, action in state.append(action.payload) }
            .on(.bell) { state, _ in state.append("bell") }
            .on(.fail) { state, _ in
                state.append("fail")
                throw TestError("suspensionFail")
            }
    }
}

/// Releases, from its `.releaseHeld` handler, the suspension the test put in `held`.
final class SuspensionReleasingStore: Store<[String]>, @unchecked Sendable {  // locked by Store; `held` locks itself
    let held: LockedBox<DispatchSuspension?>

    init(held: LockedBox<DispatchSuspension?>) {
        self.held = held
        super.init(initialState: [])
    }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable()
            .on(.releaseHeld, SuspensionReleasingStore.releaseHeld)
            .on(.note) { state, action in state.append(action.payload) }
    }

    func releaseHeld(_ state: inout [String], _ action: Action<Void>) throws {
        held.value?.release()
        state.append("released")
    }
}

/// Blocks in its `.hold` handler until the test opens `release`.
final class SuspensionHoldStore: Store<[String]>, @unchecked Sendable {  // locked by Store; the gates are immutable
    let entered: Gate
    let release: Gate

    init(entered: Gate, release: Gate) {
        self.entered = entered
        self.release = release
        super.init(initialState: [])
    }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable()
            .on(.hold, SuspensionHoldStore.hold)
            .on(.note) { state, action in state.append(action.payload) }
    }

    func hold(_ state: inout [String], _ action: Action<Void>) throws {
        entered.open()
        release.wait()
        state.append("hold")
    }
}

/// A new dispatcher with a ``SuspensionNotesStore``, created.
private func makeNotesStore() throws -> (Dispatcher, SuspensionNotesStore) {
    let dispatcher = Dispatcher()
    try dispatcher.register(SuspensionNotesStore.self)
    return (dispatcher, try dispatcher.store(SuspensionNotesStore.self))
}

@Suite struct DispatcherSuspensionTests {
    @Test func aDispatchWhileSuspendedReturnsAtOnceAndChangesNothing() throws {
        let (dispatcher, store) = try makeNotesStore()
        let observed = LockedBox(0)
        let token = store.observe { _ in observed.withValue { $0 += 1 } }

        let suspension = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "a")
        try dispatcher.dispatch(.fail)

        #expect(dispatcher.isSuspended)
        #expect(!dispatcher.isDispatching)
        #expect(store.state == [])
        #expect(observed.value == 0)
        #expect(!suspension.isReleased)
        suspension.release()
        token.cancel()
    }

    @Test func releasingRunsTheWaitingActionsInTheOrderTheyWereDispatched() throws {
        let (dispatcher, store) = try makeNotesStore()
        let seen = Recorder<[String]>()
        let token = store.observe { seen.append($0.newState) }

        let suspension = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "a")
        try dispatcher.dispatch(.bell)
        try dispatcher.dispatch(AnyAction(name: "suspensionNote", payload: "c"))
        suspension.release()

        #expect(store.state == ["a", "bell", "c"])
        #expect(seen.values == [["a"], ["a", "bell"], ["a", "bell", "c"]])
        #expect(!dispatcher.isSuspended)
        #expect(suspension.isReleased)
        token.cancel()
    }

    @Test func nestedSuspensionsRunTheWaitingActionsWhenTheLastIsReleased() throws {
        let (dispatcher, store) = try makeNotesStore()

        let outer = dispatcher.suspend()
        let inner = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "a")
        outer.release()

        #expect(dispatcher.isSuspended)
        #expect(store.state == [])

        try dispatcher.dispatch(.note, payload: "b")
        inner.release()

        #expect(!dispatcher.isSuspended)
        #expect(store.state == ["a", "b"])
    }

    @Test func aSuspensionLetGoWithoutReleaseReleasesItself() throws {
        let (dispatcher, store) = try makeNotesStore()
        var suspension: DispatchSuspension? = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "a")
        #expect(suspension?.isReleased == false)
        #expect(store.state == [])

        suspension = nil

        #expect(!dispatcher.isSuspended)
        #expect(store.state == ["a"])
    }

    @Test func releasingTwiceIsHarmless() throws {
        let (dispatcher, store) = try makeNotesStore()
        let first = dispatcher.suspend()
        let second = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "a")

        first.release()
        first.release()

        #expect(dispatcher.isSuspended, "the second release of the first suspension did not end the second")
        #expect(store.state == [])

        second.release()
        second.release()

        #expect(store.state == ["a"])
        #expect(!dispatcher.isSuspended)
        let third = dispatcher.suspend()
        #expect(dispatcher.isSuspended, "a repeated release does not undercount later suspensions")
        third.release()
    }

    @Test func dispatchExclusivelyRunsWhileSuspendedBeforeTheWaitingActions() throws {
        let (dispatcher, store) = try makeNotesStore()
        let suspension = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "waiting")

        try dispatcher.dispatchExclusively(.note, payload: "typed")
        try dispatcher.dispatchExclusively(.bell)
        try dispatcher.dispatchExclusively(AnyAction(name: "suspensionNote", payload: "untyped"))

        #expect(store.state == ["typed", "bell", "untyped"])
        #expect(dispatcher.isSuspended)

        suspension.release()

        #expect(store.state == ["typed", "bell", "untyped", "waiting"])
    }

    @Test func dispatchExclusivelyThrowsItsHandlersError() throws {
        let (dispatcher, store) = try makeNotesStore()
        let suspension = dispatcher.suspend()

        #expect(throws: TestError("suspensionFail")) { try dispatcher.dispatchExclusively(.fail) }
        #expect(store.state == [])
        suspension.release()
    }

    @Test func waitUntilDrainedReturnsAtOnceWhenNothingWaits() async throws {
        let (dispatcher, store) = try makeNotesStore()
        await dispatcher.waitUntilDrained()

        let suspension = dispatcher.suspend()
        await dispatcher.waitUntilDrained()  // suspended, but no action waits

        #expect(store.state == [])
        suspension.release()
    }

    @Test func waitUntilDrainedReturnsOnlyOnceTheReleaseHasRunTheWaitingActions() async throws {
        let (dispatcher, store) = try makeNotesStore()
        let suspension = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "a")
        try dispatcher.dispatch(.note, payload: "b")
        let waiting = Gate()
        let releaser = Thread {
            waiting.wait()
            suspension.release()
        }
        releaser.start()

        // NB: the releaser wakes up after this task has usually begun waiting; no public
        // hook says when it has. Either way, the wait must not end before the actions ran.
        waiting.open()
        await dispatcher.waitUntilDrained()

        #expect(store.state == ["a", "b"])
        #expect(!dispatcher.isSuspended)
    }

    @Test func waitUntilDrainedWaitsForEverySuspension() async throws {
        let (dispatcher, store) = try makeNotesStore()
        let first = dispatcher.suspend()
        let second = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "a")
        let statesAtRelease = Recorder<[String]>()
        let start = Gate()
        let releaser = Thread {
            start.wait()
            first.release()
            statesAtRelease.append(store.state)
            second.release()
        }
        releaser.start()

        start.open()
        await dispatcher.waitUntilDrained()

        #expect(statesAtRelease.values == [[]])
        #expect(store.state == ["a"])
    }

    @Test func releasingFromAHandlerRunsTheWaitingActionsAfterTheCurrentOne() throws {
        let dispatcher = Dispatcher()
        let held = LockedBox<DispatchSuspension?>(nil)
        try dispatcher.register(SuspensionReleasingStore.self) { SuspensionReleasingStore(held: held) }
        let store = try dispatcher.store(SuspensionReleasingStore.self)
        held.value = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "waited")

        try dispatcher.dispatchExclusively(.releaseHeld)

        #expect(store.state == ["released", "waited"])
        #expect(!dispatcher.isSuspended)
        #expect(!dispatcher.isDispatching)
        held.value = nil
    }

    @Test func releasingWhileAnotherThreadDispatchesRunsTheWaitingActionsOnThatThread() throws {
        let dispatcher = Dispatcher()
        let entered = Gate()
        let proceed = Gate()
        try dispatcher.register(SuspensionHoldStore.self) { SuspensionHoldStore(entered: entered, release: proceed) }
        let store = try dispatcher.store(SuspensionHoldStore.self)
        let stateAtReturn = LockedBox<[String]?>(nil)
        let holderDone = Gate()
        Thread {
            try? dispatcher.dispatch(.hold)
            stateAtReturn.value = store.state
            holderDone.open()
        }.start()
        entered.wait()

        let suspension = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "waited")  // returns at once though another thread holds the turn
        suspension.release()  // the running action's thread runs it
        let stateAtRelease = store.state
        proceed.open()
        holderDone.wait()

        #expect(stateAtRelease == [])
        #expect(stateAtReturn.value == ["hold", "waited"])
    }

    @Test func errorsOfTheReleasedActionsGoToOnQueuedError() throws {
        let (dispatcher, store) = try makeNotesStore()
        let queuedErrors = Recorder<String>()
        dispatcher.onQueuedError = { action, error in queuedErrors.append("\(action.name): \(error)") }
        let changeErrors = Recorder<String>()
        let token = store.observe { change in changeErrors.append(change.action.name) }

        let suspension = dispatcher.suspend()
        try dispatcher.dispatch(.fail)
        try dispatcher.dispatch(.note, payload: "after")
        suspension.release()

        #expect(queuedErrors.values == ["suspensionFail: TestError(suspensionFail)"])
        #expect(changeErrors.values == ["suspensionNote"])  // the failed action is no change
        #expect(store.state == ["after"])
        token.cancel()
    }

    @Test func waitingActionsPassThroughTheMiddlewareWhenReleased() throws {
        let (dispatcher, store) = try makeNotesStore()
        let seen = Recorder<String>()
        dispatcher.addMiddleware(
            ClosureMiddleware { action, next in
                seen.append(action.name)
                return try next(action)
            })

        let suspension = dispatcher.suspend()
        try dispatcher.dispatch(.note, payload: "a")
        #expect(seen.values == [])
        suspension.release()

        #expect(seen.values == ["suspensionNote"])
        #expect(store.state == ["a"])
    }
}

@Suite(.serialized) struct DispatcherSuspensionThreadingTests {
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
