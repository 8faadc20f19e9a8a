import Dispatch
import Fluxion
import Foundation
import Testing

/// Waits on the main queue for every call queued on it before this one.
@MainActor
private func drainMainQueue() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { continuation.resume() }
    }
}

/// Waits, off the main actor, until every member of `group` has left.
private func waitFor(_ group: DispatchGroup) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        group.notify(queue: .global()) { continuation.resume() }
    }
}

// What a `cancel()` made on another thread promises (issue 22.10): no change committed after it
// returns reaches the observer; a call under way, or let through just before, is not waited for
// (at most one, which `ObserverCancellationTests` bounds); a cancel made on the serial queue an
// observer runs on leaves no call at all.
@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct ObserverCancellationPromiseTests {
    /// An observer form, and how to cancel it.
    enum Form: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case storeToken, storeHandle, keyPathToken, dispatcherToken, dispatcherHandle, queuedToken

        var testDescription: String { rawValue }

        /// Adds an observer of this form that passes each new total to `body`; returns what cancels
        /// it, what must be kept alive until then, and what waits for its queue, if it has one.
        func observe(
            _ dispatcher: Dispatcher,
            _ store: CountingStore,
            owner: ObserverOwner,
            _ body: @escaping @Sendable (Int) -> Void
        ) -> Observed {
            switch self {
            case .storeToken:
                let token = store.observe { body($0.newState.total) }
                return Observed(cancel: token.cancel, kept: token)
            case .storeHandle:
                let handle = store.observe(owner: owner) { _, change in body(change.newState.total) }
                return Observed(cancel: handle.cancel, kept: nil)
            case .keyPathToken:
                let token = store.observe(\.total) { body($0.newValue) }
                return Observed(cancel: token.cancel, kept: token)
            case .dispatcherToken:
                let token = dispatcher.observe { body($0.change(as: Tally.self)?.newState.total ?? 0) }
                return Observed(cancel: token.cancel, kept: token)
            case .dispatcherHandle:
                let handle = dispatcher.observe(owner: owner) { _, change in
                    body(change.change(as: Tally.self)?.newState.total ?? 0)
                }
                return Observed(cancel: handle.cancel, kept: nil)
            case .queuedToken:
                let token = store.observe(on: DispatchQueue(label: "cancellation-promise")) {
                    body($0.newState.total)
                }
                return Observed(cancel: token.cancel, kept: token)
            }
        }
    }

    /// An observer added by a ``Form``.
    struct Observed: Sendable {
        let cancel: @Sendable () -> Void
        let kept: ObservationToken?
    }

    @Test(arguments: Form.allCases)
    func noChangeCommittedAfterCancelReturnsReachesTheObserver(form: Form) throws {
        let (dispatcher, store) = try makeCounterStore()
        let owner = ObserverOwner()
        // NB: read once `cancel()` has returned; a change with a greater total was committed later.
        let totalAtCancel = LockedBox(Int.max)
        let late = Recorder<Int>()
        let observed = form.observe(dispatcher, store, owner: owner) { total in
            if total > totalAtCancel.value { late.append(total) }
        }

        runOnThreads(2) { index in
            if index == 0 {
                for _ in 0..<2_000 { try? dispatcher.dispatch(.counterAdd, payload: 1) }
            } else {
                for _ in 0..<200 { _ = store.state }
                observed.cancel()
                totalAtCancel.value = store.state.total
            }
        }
        try dispatcher.dispatch(.counterAdd, payload: 1)  // one more, surely after the cancel

        #expect(late.count == 0, "heard changes committed after the cancel, from \(late.values.prefix(3))")
        #expect(store.state.total == 2_001)
        withExtendedLifetime((observed.kept, owner)) {}
    }

    @Test(arguments: Form.allCases)
    func cancelDoesNotWaitForACallUnderWayOnAnotherThread(form: Form) throws {
        // NB: a cancel that waited for the call would wait for ever here: the call waits for it.
        let (dispatcher, store) = try makeCounterStore()
        let owner = ObserverOwner()
        let entered = DispatchSemaphore(value: 0)
        let cancelReturned = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        let sawCancelReturn = LockedBox(false)
        let observed = form.observe(dispatcher, store, owner: owner) { _ in
            entered.signal()
            sawCancelReturn.value = cancelReturned.wait(timeout: .now() + hangGuard) == .success
            returned.signal()
        }
        let dispatching = DispatchGroup()
        dispatching.runOnNewThread { try? dispatcher.dispatch(.counterAdd, payload: 1) }

        try #require(entered.wait(timeout: .now() + hangGuard) == .success, "hung: the observer was never called")
        observed.cancel()
        cancelReturned.signal()

        #expect(returned.wait(timeout: .now() + hangGuard) == .success, "hung: the observer's call did not return")
        #expect(dispatching.wait(timeout: .now() + hangGuard) == .success, "hung: the dispatch did not return")
        #expect(sawCancelReturn.value, "hung: cancel waited for the call under way, which waited for it")
        withExtendedLifetime((observed.kept, owner)) {}
    }

    @Test @MainActor func aMainActorObserverCancelledOnTheMainActorIsNotCalledAgain() async throws {
        let (dispatcher, store) = try makeCounterStore()
        let isCancelled = LockedBox(false)
        let calls = LockedBox(0)
        let late = LockedBox(0)
        let token = store.observeOnMainActor { _ in
            calls.withValue { $0 += 1 }
            if isCancelled.value { late.withValue { $0 += 1 } }
        }
        let stop = LockedBox(false)
        let dispatching = DispatchGroup()
        dispatching.runOnNewThread {
            while !stop.value { try? dispatcher.dispatch(.counterAdd, payload: 1) }
        }

        // NB: lets some calls run, while the other thread queues more; on a busy machine (or under the
        // sanitizer) that thread may not have dispatched yet: the suite's time limit is the hang guard.
        repeat { await drainMainQueue() } while calls.value == 0
        token.cancel()
        isCancelled.value = true  // NB: on the main actor, with no suspension since the cancel
        stop.value = true
        await waitFor(dispatching)
        await drainMainQueue()

        #expect(late.value == 0, "calls queued before the cancel must not run after it")
        #expect(calls.value > 0)
    }
}
