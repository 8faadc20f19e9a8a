import Fluxion
import Foundation
import Testing

// A delivery calls its observers without locking while none of them was
// cancelled since it began (see `CancellationCheck`). These tests cancel an
// observer in the middle of a delivery, for each kind of observer, and check
// that it is not called once its `cancel()` has returned.
@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct ObserverCancellationTests {
    /// An observer form whose cancellation a delivery must honour.
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case storeToken, storeHandle, dispatcherToken, dispatcherHandle

        var testDescription: String { rawValue }

        /// Adds an observer of this kind that runs `body` on each change; returns what cancels it,
        /// and what must be kept alive until then (a token).
        func observe(
            _ dispatcher: Dispatcher,
            _ store: CountingStore,
            owner: ObserverOwner,
            _ body: @escaping @Sendable () -> Void
        ) -> (cancel: @Sendable () -> Void, kept: ObservationToken?) {
            switch self {
            case .storeToken:
                let token = store.observe { _ in body() }
                return ({ token.cancel() }, token)
            case .storeHandle:
                let handle = store.observe(owner: owner) { _, _ in body() }
                return ({ handle.cancel() }, nil)
            case .dispatcherToken:
                let token = dispatcher.observe { _ in body() }
                return ({ token.cancel() }, token)
            case .dispatcherHandle:
                let handle = dispatcher.observe(owner: owner) { _, _ in body() }
                return ({ handle.cancel() }, nil)
            }
        }
    }

    @Test(arguments: Kind.allCases)
    func anObserverCancelledByAnEarlierOneIsNotCalledForThatChange(kind: Kind) throws {
        let (dispatcher, store) = try makeCounterStore()
        let owner = ObserverOwner()
        let seen = Recorder<String>()
        let cancelSecond = LockedBox<(@Sendable () -> Void)?>(nil)
        let first = kind.observe(dispatcher, store, owner: owner) {
            seen.append("first")
            cancelSecond.value?()
        }
        let second = kind.observe(dispatcher, store, owner: owner) { seen.append("second") }
        cancelSecond.value = second.cancel

        try dispatcher.dispatch(.counterAdd, payload: 1)
        try dispatcher.dispatch(.counterAdd, payload: 1)

        #expect(seen.values == ["first", "first"])
        withExtendedLifetime((first.kept, second.kept, owner)) {}
    }

    @Test(arguments: Kind.allCases)
    func anObserverCancelledAfterItsDeliveryBeganIsNotCalledOnceCancelReturns(kind: Kind) throws {
        // The first observer waits, inside the delivery, until another thread has cancelled the second.
        let (dispatcher, store) = try makeCounterStore()
        let owner = ObserverOwner()
        let seen = Recorder<String>()
        let delivering = Gate()
        let cancelled = Gate()
        let first = kind.observe(dispatcher, store, owner: owner) {
            delivering.open()
            cancelled.wait()
        }
        let second = kind.observe(dispatcher, store, owner: owner) { seen.append("second") }
        let group = DispatchGroup()
        group.runOnNewThread {  // NB: not `DispatchQueue.global()`: on Linux, it blocks the global executor's threads
            delivering.wait()
            second.cancel()
            cancelled.open()
        }

        try dispatcher.dispatch(.counterAdd, payload: 1)
        group.wait()

        #expect(seen.values.isEmpty)
        withExtendedLifetime((first.kept, second.kept, owner)) {}
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
