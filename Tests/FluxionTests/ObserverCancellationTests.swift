import Fluxion
import Foundation
import Testing

// A delivery calls its observers without locking while none of them was
// cancelled since it began (see `CancellationCheck`). These tests cancel an
// observer in the middle of a delivery, for each kind of observer, and check
// that it is not called once its `cancel()` has returned.
@Suite struct ObserverCancellationTests {
    @Test func aStoreTokenCancelledByAnEarlierObserverIsNotCalledForThatChange() throws {
        let (dispatcher, store) = try makeCounterStore()
        let seen = Recorder<String>()
        let later = LockedBox<ObservationToken?>(nil)
        let first = store.observe { change in
            seen.append("first \(change.newState.total)")
            later.value?.cancel()
        }
        later.value = store.observe { change in seen.append("second \(change.newState.total)") }

        try dispatcher.dispatch(.counterAdd, payload: 1)
        try dispatcher.dispatch(.counterAdd, payload: 1)

        #expect(seen.values == ["first 1", "first 2"])
        first.cancel()
    }

    @Test func aKeyPathObserverCancelledByAnEarlierObserverIsNotCalledForThatChange() throws {
        let (dispatcher, store) = try makeCounterStore()
        let seen = Recorder<String>()
        let later = LockedBox<ObservationToken?>(nil)
        let first = store.observe { _ in later.value?.cancel() }
        later.value = store.observe(\.total) { change in seen.append("total \(change.newValue)") }

        try dispatcher.dispatch(.counterAdd, payload: 1)

        #expect(seen.values.isEmpty)
        first.cancel()
    }

    @Test func aDispatcherTokenCancelledByAnEarlierObserverIsNotCalledForThatChange() throws {
        let (dispatcher, _) = try makeCounterStore()
        let seen = Recorder<String>()
        let later = LockedBox<ObservationToken?>(nil)
        let first = dispatcher.observe { _ in
            seen.append("first")
            later.value?.cancel()
        }
        later.value = dispatcher.observe { _ in seen.append("second") }

        try dispatcher.dispatch(.counterAdd, payload: 1)

        #expect(seen.values == ["first"])
        first.cancel()
    }

    @Test func aDispatcherHandleCancelledByAnEarlierObserverIsNotCalledForThatChange() throws {
        let (dispatcher, _) = try makeCounterStore()
        let owner = ObserverOwner()
        let seen = Recorder<String>()
        let later = LockedBox<ObservationHandle?>(nil)
        dispatcher.observe(owner: owner) { _, _ in
            seen.append("first")
            later.value?.cancel()
        }
        later.value = dispatcher.observe(owner: owner) { _, _ in seen.append("second") }

        try dispatcher.dispatch(.counterAdd, payload: 1)

        #expect(seen.values == ["first"])
        withExtendedLifetime(owner) {}
    }

    @Test func anObserverCancelledAfterItsDeliveryBeganIsNotCalledOnceCancelReturns() throws {
        // The first observer waits, inside the delivery, until another thread has cancelled the second.
        let (dispatcher, store) = try makeCounterStore()
        let seen = Recorder<String>()
        let later = LockedBox<ObservationToken?>(nil)
        let delivering = Gate()
        let cancelled = Gate()
        let first = store.observe { _ in
            delivering.open()
            cancelled.wait()
        }
        later.value = store.observe { _ in seen.append("second") }
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            delivering.wait()
            later.value?.cancel()
            cancelled.open()
        }

        try dispatcher.dispatch(.counterAdd, payload: 1)
        group.wait()

        #expect(seen.values.isEmpty)
        first.cancel()
    }

    @Test func tokensCancelledFromAnotherThreadStopOnceCancelReturns() throws {
        let (dispatcher, store) = try makeCounterStore()
        let callsAfterCancel = callsAfterCancellingFromAnotherThread(dispatcher, store) { onCall in
            let token = store.observe { _ in onCall() }
            return { token.cancel() }
        }

        // NB: a call that passed its check as `cancel` returned may still count: at most one.
        #expect(callsAfterCancel <= 1)
        #expect(store.state.total == 2_000)
    }
}

/// Dispatches 2,000 actions on one thread while another cancels the observer that `observe` adds
/// (it returns how to cancel it); returns how many calls began after the cancel had returned.
func callsAfterCancellingFromAnotherThread(
    _ dispatcher: Dispatcher,
    _ store: CountingStore,
    observe: (_ onCall: @escaping @Sendable () -> Void) -> @Sendable () -> Void
) -> Int {
    let cancelled = LockedBox(false)
    let callsAfterCancel = LockedBox(0)
    let cancel = observe {
        if cancelled.value { callsAfterCancel.withValue { $0 += 1 } }
    }
    runOnThreads(2) { index in
        if index == 0 {
            for _ in 0..<2_000 { try? dispatcher.dispatch(.counterAdd, payload: 1) }
        } else {
            for _ in 0..<200 { _ = store.state }
            cancel()
            cancelled.value = true
        }
    }
    return callsAfterCancel.value
}
