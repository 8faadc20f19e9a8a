import Dispatch
import Fluxion
import Testing

/// The owner-bound observer forms, each of which returns an ``ObservationHandle``.
enum OwnedObserverForm: CaseIterable, Sendable {
    case store
    case queued
    case keyPath
    case selector
    case wholeDispatcher
    case wholeDispatcherQueued
}

/// Adds an observer of `form` for `owner`, which appends each new total to `seen` (and, queued,
/// arrives at `arrived`); its closure alone holds `canary`.
private func observe(
    _ form: OwnedObserverForm,
    of store: CountingStore,
    in dispatcher: Dispatcher,
    owner: ObserverOwner,
    seen: Recorder<Int>,
    arrived: ArrivalCounter = ArrivalCounter(),
    canary: Canary = Canary(),
    queue: DispatchQueue = DispatchQueue(label: "handle-test")
) -> ObservationHandle {
    let record: @Sendable (Int) -> Void = { total in
        withExtendedLifetime(canary) { seen.append(total) }
        arrived.arrive()
    }
    switch form {
    case .store:
        return store.observe(owner: owner) { _, change in record(change.newState.total) }
    case .queued:
        return store.observe(owner: owner, on: queue) { _, change in record(change.newState.total) }
    case .keyPath:
        return store.observe(owner: owner, \.total) { _, total in record(total.newValue) }
    case .selector:
        return store.observe(owner: owner, selecting: \.total, isEqual: ==) { _, total in record(total.newValue) }
    case .wholeDispatcher:
        return dispatcher.observe(owner: owner) { _, change in
            record(change.change(as: Tally.self)?.newState.total ?? -1)
        }
    case .wholeDispatcherQueued:
        return dispatcher.observe(owner: owner, on: queue) { _, change in
            record(change.change(as: Tally.self)?.newState.total ?? -1)
        }
    }
}

@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct ObservationHandleTests {
    @Test(arguments: OwnedObserverForm.allCases)
    func cancelStopsTheObserverWhileTheOwnerLives(form: OwnedObserverForm) throws {
        let (dispatcher, store) = try makeCounterStore()
        let owner = ObserverOwner()
        let seen = Recorder<Int>()
        let arrived = ArrivalCounter()
        let queue = DispatchQueue(label: "handle-test")
        let handle = observe(form, of: store, in: dispatcher, owner: owner, seen: seen, arrived: arrived, queue: queue)
        try dispatcher.dispatch(.counterAdd, payload: 1)
        arrived.wait(for: 1)

        handle.cancel()
        try dispatcher.dispatch(.counterAdd, payload: 1)
        queue.sync {}  // NB: a queued call of the second change would have run by now

        #expect(seen.values == [1])
        #expect(handle.isCancelled)
        withExtendedLifetime(owner) {}
    }

    @Test(arguments: OwnedObserverForm.allCases)
    func aDiscardedHandleChangesNothing(form: OwnedObserverForm) throws {
        let (dispatcher, store) = try makeCounterStore()
        let owner = ObserverOwner()
        let seen = Recorder<Int>()
        let arrived = ArrivalCounter()
        _ = observe(form, of: store, in: dispatcher, owner: owner, seen: seen, arrived: arrived)

        try dispatcher.dispatch(.counterAdd, payload: 1)
        try dispatcher.dispatch(.counterAdd, payload: 2)
        arrived.wait(for: 2)

        #expect(seen.values == [1, 3])
        withExtendedLifetime(owner) {}
    }

    @Test(arguments: OwnedObserverForm.allCases)
    func cancellingReleasesTheClosureAndCancellingTwiceIsHarmless(form: OwnedObserverForm) throws {
        let (dispatcher, store) = try makeCounterStore()
        let owner = ObserverOwner()
        var canary: Canary? = Canary()
        let reference = Weak(object: canary)
        let handle = observe(form, of: store, in: dispatcher, owner: owner, seen: Recorder(), canary: canary!)
        canary = nil
        #expect(reference.object != nil)

        handle.cancel()
        handle.cancel()

        #expect(reference.object == nil)
        #expect(handle.isCancelled)
        withExtendedLifetime(owner) {}
    }

    @Test func anObserverCancelledByAnotherDuringADeliveryIsNotCalledForThatChange() throws {
        let (dispatcher, store) = try makeCounterStore()
        let owner = ObserverOwner()
        let seen = Recorder<String>()
        let later = LockedBox<ObservationHandle?>(nil)
        store.observe(owner: owner) { _, change in
            seen.append("first \(change.newState.total)")
            later.value?.cancel()
        }
        later.value = store.observe(owner: owner) { _, change in seen.append("second \(change.newState.total)") }

        try dispatcher.dispatch(.counterAdd, payload: 1)

        #expect(seen.values == ["first 1"])
    }

    @Test func aQueuedCallNotStartedWhenTheHandleIsCancelledIsSkipped() throws {
        let (dispatcher, store) = try makeCounterStore()
        let owner = ObserverOwner()
        let queue = DispatchQueue(label: "handle-test")
        let blocked = Gate()
        queue.async { blocked.wait() }
        let seen = Recorder<Int>()
        let handle = store.observe(owner: owner, on: queue) { _, change in seen.append(change.newState.total) }

        try dispatcher.dispatch(.counterAdd, payload: 1)  // queued behind the blocked block
        handle.cancel()
        blocked.open()
        queue.sync {}

        #expect(seen.values.isEmpty)
        withExtendedLifetime(owner) {}
    }

    @Test func aHandleKeepsNeitherTheOwnerNorTheStoreAlive() throws {
        var dispatcher: Dispatcher? = Dispatcher()
        try dispatcher!.register(CountingStore.self)
        let store = Weak(object: try dispatcher!.store(CountingStore.self))
        var owner: ObserverOwner? = ObserverOwner()
        let weakOwner = Weak(object: owner)
        let handle = try #require(store.object).observe(owner: owner!) { _, _ in }
        let relayHandle = dispatcher!.observe(owner: owner!) { _, _ in }

        owner = nil
        dispatcher = nil

        #expect(weakOwner.object == nil)
        #expect(store.object == nil)
        handle.cancel()  // the store is gone: nothing to do
        relayHandle.cancel()
        #expect(handle.isCancelled && relayHandle.isCancelled)
    }

    @Test func cancellingAnObserverWhoseOwnerWentLeavesTheObserverInItsSlotAlone() throws {
        let (dispatcher, store) = try makeCounterStore()
        var gone: ObserverOwner? = ObserverOwner()
        let stale = store.observe(owner: gone!) { _, _ in }
        gone = nil
        try dispatcher.dispatch(.counterAdd, payload: 1)  // drops the observer whose owner went
        let owner = ObserverOwner()
        let seen = Recorder<Int>()
        store.observe(owner: owner) { _, change in seen.append(change.newState.total) }  // takes its slot

        stale.cancel()
        try dispatcher.dispatch(.counterAdd, payload: 1)

        #expect(seen.values == [2])
        withExtendedLifetime(owner) {}
    }

    @Test func cancellingFromAnotherThreadStopsTheObserverOnceCancelReturns() throws {
        let (dispatcher, store) = try makeCounterStore()
        let owner = ObserverOwner()
        let callsAfterCancel = callsAfterCancellingFromAnotherThread(dispatcher, store) { onCall in
            let handle = store.observe(owner: owner) { _, _ in onCall() }
            return { handle.cancel() }
        }

        // NB: a call that passed its check as `cancel` returned may still count: at most one.
        #expect(callsAfterCancel <= 1)
        #expect(store.state.total == 2_000)
        withExtendedLifetime(owner) {}
    }
}
