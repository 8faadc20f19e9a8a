import Fluxion
import Foundation
import Testing

extension ActionName where Payload == String {
    fileprivate static var note: Self { "suspensionNote" }
}

extension ActionName where Payload == Void {
    fileprivate static var releaseHeld: Self { "suspensionReleaseHeld" }
    fileprivate static var hold: Self { "suspensionHold" }
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
            .route(.releaseHeld, to: SuspensionReleasingStore.releaseHeld)
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
            .route(.hold, to: SuspensionHoldStore.hold)
            .on(.note) { state, action in state.append(action.payload) }
    }

    func hold(_ state: inout [String], _ action: Action<Void>) throws {
        entered.open()
        release.wait()
        state.append("hold")
    }
}

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct DispatcherSuspensionDrainingTests {
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

        try dispatcher.dispatchBypassingSuspension(.releaseHeld)

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
}
