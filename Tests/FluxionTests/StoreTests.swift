import Fluxion
import Testing

extension ActionName where Payload == Int {
    fileprivate static var count: Self { "storeCount" }
}

extension ActionName where Payload == Void {
    fileprivate static var unrelated: Self { "storeUnrelated" }
}

/// Adds the payload to a count; throws for negative payloads after mutating.
final class ObservedCounterStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.count) { state, action in
            state += action.payload
            if action.payload < 0 { throw TestError("negative count") }
        }
    }
}

/// Handles `.unrelated` only.
final class ObservedBystanderStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.unrelated) { state, _ in state += 1 }
    }
}

/// A change reduced to what the tests compare.
private struct Seen: Equatable, Sendable {
    var old: Int
    var new: Int
    var name: String
    var payload: Int?

    init(_ change: StoreChange<Int>) {
        old = change.oldState
        new = change.newState
        name = change.action.name
        payload = change.action.payload(as: Int.self)
    }

    init(old: Int, new: Int, name: String = "storeCount", payload: Int?) {
        self.old = old
        self.new = new
        self.name = name
        self.payload = payload
    }
}

@Suite struct StoreTests {
    private func counter() throws -> (Dispatcher, ObservedCounterStore) {
        let dispatcher = Dispatcher()
        try dispatcher.register(ObservedCounterStore.self)
        return (dispatcher, try dispatcher.store(ObservedCounterStore.self))
    }

    // MARK: The change

    @Test func aChangeCarriesOldAndNewStateAndTheAction() throws {
        let (dispatcher, store) = try counter()
        let seen = Recorder<Seen>()
        let owner = ObserverOwner()
        store.observe(owner: owner) { _, change in seen.append(Seen(change)) }

        try dispatcher.dispatch(.count, payload: 2)
        try dispatcher.dispatch(AnyAction(name: "storeCount", payload: 3))

        #expect(seen.values == [Seen(old: 0, new: 2, payload: 2), Seen(old: 2, new: 5, payload: 3)])
        withExtendedLifetime(owner) {}
    }

    @Test func aFailingHandlerLeavesTheStateUnchangedAndTellsNoObserver() throws {
        let (dispatcher, store) = try counter()
        let seen = Recorder<Seen>()
        let owner = ObserverOwner()
        store.observe(owner: owner) { _, change in seen.append(Seen(change)) }
        try dispatcher.dispatch(.count, payload: 4)

        #expect(throws: TestError("negative count")) {
            try dispatcher.dispatch(.count, payload: -1)
        }

        #expect(seen.values == [Seen(old: 0, new: 4, payload: 4)])
        #expect(store.state == 4)
        withExtendedLifetime(owner) {}
    }

    @Test func theOwnerIsPassedToTheObserver() throws {
        let (dispatcher, store) = try counter()
        let sameOwner = Recorder<Bool>()
        let owner = ObserverOwner()
        store.observe(owner: owner) { [weak owner] received, _ in sameOwner.append(received === owner) }

        try dispatcher.dispatch(.count, payload: 1)

        #expect(sameOwner.values == [true])
        withExtendedLifetime(owner) {}
    }

    @Test func aStoreWhoseHandlerDidNotRunGetsNoChange() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(ObservedCounterStore.self)
        try dispatcher.register(ObservedBystanderStore.self)
        let calls = Recorder<String>()
        let owner = ObserverOwner()
        try dispatcher.store(ObservedBystanderStore.self).observe(owner: owner) { _, change in
            calls.append(change.action.name)
        }

        try dispatcher.dispatch(.count, payload: 1)
        try dispatcher.dispatch(.unrelated)

        #expect(calls.values == ["storeUnrelated"])
        withExtendedLifetime(owner) {}
    }

    @Test func exactlyOneChangePerDispatchEvenWhenWaitForRanTheStoreEarly() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try dispatcher.register(EarlyWaiterStore.self) { EarlyWaiterStore(log: log) }
        try dispatcher.register(SourceStore.self) { SourceStore(log: log) }
        try dispatcher.register(LateWaiterStore.self) { LateWaiterStore(log: log) }
        let sourceChanges = Recorder<String>()
        let waiterChanges = Recorder<String>()
        let owner = ObserverOwner()
        try dispatcher.store(SourceStore.self).observe(owner: owner) { _, change in
            sourceChanges.append("\(change.oldState.value)→\(change.newState.value)")
        }
        try dispatcher.store(EarlyWaiterStore.self).observe(owner: owner) { _, change in
            waiterChanges.append("\(change.oldState.seen ?? -1)→\(change.newState.seen ?? -1)")
        }

        try dispatcher.dispatch(.setSource, payload: 1)
        try dispatcher.dispatch(.setSource, payload: 2)

        #expect(sourceChanges.values == ["0→1", "1→2"])
        #expect(waiterChanges.values == ["-1→1", "1→2"])
        withExtendedLifetime(owner) {}
    }

    @Test func observersHearAfterEveryStoreHandledTheAction() throws {
        let log = Recorder<String>()
        let dispatcher = Dispatcher()
        try dispatcher.register(SourceStore.self) { SourceStore(log: log) }
        try dispatcher.register(LateWaiterStore.self) { LateWaiterStore(log: log) }
        let owner = ObserverOwner()
        try dispatcher.store(SourceStore.self).observe(owner: owner) { _, _ in log.append("observer") }

        try dispatcher.dispatch(.setSource, payload: 1)

        #expect(log.values == ["source", "late", "observer"])
        withExtendedLifetime(owner) {}
    }

    // MARK: Weak owners

    @Test func anObserverStopsAndIsFreedWhenItsOwnerDeallocates() throws {
        let (dispatcher, store) = try counter()
        let calls = Recorder<Int>()
        weak var weakCanary: Canary?
        var owner: ObserverOwner? = ObserverOwner()
        do {
            let canary = Canary()
            weakCanary = canary
            store.observe(owner: try #require(owner)) { _, change in
                withExtendedLifetime(canary) { calls.append(change.newState) }
            }
        }
        try dispatcher.dispatch(.count, payload: 1)
        #expect(calls.values == [1])
        #expect(weakCanary != nil)

        owner = nil
        try dispatcher.dispatch(.count, payload: 1)

        #expect(calls.values == [1])
        #expect(weakCanary == nil, "the observer closure and what it captured are freed")
        #expect(store.state == 2)
    }

    @Test func otherObserversKeepHearingWhenOneOwnerDeallocates() throws {
        let (dispatcher, store) = try counter()
        let calls = Recorder<String>()
        let keeper = ObserverOwner()
        var leaver: ObserverOwner? = ObserverOwner()
        store.observe(owner: try #require(leaver)) { _, change in calls.append("leaver:\(change.newState)") }
        store.observe(owner: keeper) { _, change in calls.append("keeper:\(change.newState)") }

        try dispatcher.dispatch(.count, payload: 1)
        leaver = nil
        try dispatcher.dispatch(.count, payload: 1)

        #expect(calls.values == ["leaver:1", "keeper:1", "keeper:2"])
        withExtendedLifetime(keeper) {}
    }

    @Test func manyDeallocatedOwnersDoNotDisturbTheLiveObserver() throws {
        let (dispatcher, store) = try counter()
        let calls = Recorder<Int>()
        let keeper = ObserverOwner()
        store.observe(owner: keeper) { _, change in calls.append(change.newState) }
        for _ in 0..<50 {
            let owner = ObserverOwner()
            store.observe(owner: owner) { _, _ in Issue.record("an observer of a deallocated owner ran") }
        }

        try dispatcher.dispatch(.count, payload: 1)
        try dispatcher.dispatch(.count, payload: 1)

        #expect(calls.values == [1, 2])
        withExtendedLifetime(keeper) {}
    }

    // MARK: Re-entrancy

    @Test func anObserverThatDispatchesIsQueuedAndObserversSeeChangesInOrder() throws {
        let (dispatcher, store) = try counter()
        let seen = Recorder<String>()
        let owner = ObserverOwner()
        store.observe(owner: owner) { [weak dispatcher, weak store] _, change in
            seen.append("first:\(change.oldState)→\(change.newState)")
            if change.newState == 1 {
                do {
                    try dispatcher?.dispatch(.count, payload: 10)
                } catch {
                    Issue.record(error)
                }
                // Queued: it has not run yet.
                seen.append("after dispatch: \(store?.state ?? -1)")
            }
        }
        store.observe(owner: owner) { _, change in seen.append("second:\(change.oldState)→\(change.newState)") }

        try dispatcher.dispatch(.count, payload: 1)

        #expect(
            seen.values == [
                "first:0→1", "after dispatch: 1", "second:0→1",
                "first:1→11", "second:1→11",
            ])
        #expect(store.state == 11)
        withExtendedLifetime(owner) {}
    }

    @Test func anObserverAddedDuringANotificationHearsOnlyLaterChanges() throws {
        let (dispatcher, store) = try counter()
        let seen = Recorder<String>()
        let added = LockedBox<ObservationToken?>(nil)
        let owner = ObserverOwner()
        store.observe(owner: owner) { [weak store] _, change in
            seen.append("first:\(change.newState)")
            guard let store, added.value == nil else { return }
            added.value = store.observe { change in seen.append("added:\(change.newState)") }
        }

        try dispatcher.dispatch(.count, payload: 1)
        #expect(seen.values == ["first:1"])

        try dispatcher.dispatch(.count, payload: 1)
        #expect(seen.values == ["first:1", "first:2", "added:2"])
        withExtendedLifetime(owner) {}
        added.value?.cancel()
    }

    @Test func aTokenObserverCancelledByAnEarlierObserverIsNotCalledAfter() throws {
        let (dispatcher, store) = try counter()
        let seen = Recorder<String>()
        let victim = LockedBox<ObservationToken?>(nil)
        let owner = ObserverOwner()
        store.observe(owner: owner) { _, change in
            seen.append("first:\(change.newState)")
            if change.newState == 2 { victim.value?.cancel() }
        }
        victim.value = store.observe { change in seen.append("victim:\(change.newState)") }

        try dispatcher.dispatch(.count, payload: 1)
        try dispatcher.dispatch(.count, payload: 1)
        try dispatcher.dispatch(.count, payload: 1)

        #expect(seen.values == ["first:1", "victim:1", "first:2", "first:3"])
        #expect(victim.value?.isCancelled == true)
        withExtendedLifetime(owner) {}
    }

    @Test func anOwnerReleasedByAnEarlierObserverIsNotCalledAfter() throws {
        let (dispatcher, store) = try counter()
        let seen = Recorder<String>()
        let victimOwner = LockedBox<ObserverOwner?>(ObserverOwner())
        let owner = ObserverOwner()
        store.observe(owner: owner) { _, change in
            seen.append("first:\(change.newState)")
            if change.newState == 2 { victimOwner.value = nil }
        }
        store.observe(owner: try #require(victimOwner.value)) { _, change in seen.append("victim:\(change.newState)") }

        try dispatcher.dispatch(.count, payload: 1)
        try dispatcher.dispatch(.count, payload: 1)
        try dispatcher.dispatch(.count, payload: 1)

        #expect(seen.values == ["first:1", "victim:1", "first:2", "first:3"])
        withExtendedLifetime(owner) {}
    }

    // MARK: Snapshots

    @Test func stateIsASnapshotThatLaterDispatchesDoNotChange() throws {
        let (dispatcher, store) = try counter()
        try dispatcher.dispatch(.count, payload: 1)
        let snapshot = store.state

        try dispatcher.dispatch(.count, payload: 1)

        #expect(snapshot == 1)
        #expect(store.state == 2)
    }

    @Test func aStoreKnowsTheDispatcherThatCreatedIt() throws {
        let (dispatcher, store) = try counter()
        #expect(store.dispatcher === dispatcher)

        let loose = ObservedCounterStore()
        #expect(loose.dispatcher == nil)
        #expect(throws: FluxionError.waitForOutsideDispatch("ObservedBystanderStore")) {
            try loose.waitFor(ObservedBystanderStore.self)
        }
    }
}
