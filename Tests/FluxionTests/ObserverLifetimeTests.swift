import Fluxion
import Testing

private struct Life: Sendable, Equatable {
    var count = 0
}

extension ActionName where Payload == Int {
    fileprivate static var txnLifeSet: Self { "txnLifeSet" }
}

private final class LifeStore: Store<Life>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Life()) }

    override class var handlers: HandlerTable<Life> {
        HandlerTable().on(.txnLifeSet) { state, action in state.count = action.payload }
    }
}

/// How many ``LiveMarker``s of one test are alive now.
private final class LiveCount: Sendable {
    private let box = LockedBox(0)

    var value: Int { box.value }

    func add(_ delta: Int) {
        box.withValue { $0 += delta }
    }
}

/// Counted alive in its ``LiveCount`` from `init` to `deinit`: closures capture one to be counted.
private final class LiveMarker: Sendable {
    private let live: LiveCount

    init(_ live: LiveCount) {
        self.live = live
        live.add(1)
    }

    deinit { live.add(-1) }
}

/// A weak reference, read on the test's thread only.
private struct WeakReference {
    weak var object: Canary?
}

private enum TokenObserverKind: CaseIterable, Sendable {
    case store
    case keyPath
    case wholeDispatcher
}

private enum TokenEnding: CaseIterable, Sendable {
    case cancel
    case release
}

private enum StreamEnding: CaseIterable, Sendable {
    case dropped
    case consumerCancelled
}

/// Adds a token observer of `kind` whose closure alone holds a new ``Canary``, counting its calls in `calls`.
///
/// - Returns: A weak reference to the canary; the token goes to `token`, so that the caller holds the only one.
private func observe(
    _ kind: TokenObserverKind,
    of store: LifeStore,
    in dispatcher: Dispatcher,
    counting calls: LockedBox<Int>,
    token: inout ObservationToken?
) -> WeakReference {
    let canary = Canary()
    let call: @Sendable () -> Void = { withExtendedLifetime(canary) { calls.withValue { $0 += 1 } } }
    switch kind {
    case .store: token = store.observe { _ in call() }
    case .keyPath: token = store.observe(\.count) { _ in call() }
    case .wholeDispatcher: token = dispatcher.observe { _ in call() }
    }
    return WeakReference(object: canary)
}

// NB: the time limit is a hang guard: with three CPU-bound processes beside the suite, a test here took a minute.
@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct ObserverLifetimeTests {
    @Test(arguments: TokenObserverKind.allCases, TokenEnding.allCases)
    fileprivate func endingATokenFreesTheObserversClosureAtOnce(kind: TokenObserverKind, ending: TokenEnding)
        throws
    {
        let dispatcher = Dispatcher()
        try dispatcher.register(LifeStore.self)
        let store = try dispatcher.store(LifeStore.self)
        let calls = LockedBox(0)
        var token: ObservationToken?
        let canary = observe(kind, of: store, in: dispatcher, counting: calls, token: &token)
        try dispatcher.dispatch(.txnLifeSet, payload: 1)
        #expect(calls.value == 1)
        #expect(canary.object != nil, "the closure holds it while the token lives")

        switch ending {
        case .cancel: token?.cancel()
        case .release: token = nil
        }

        #expect(canary.object == nil, "freed with no dispatch after the token ended")
        withExtendedLifetime(token) {}
    }

    @Test func wholeDispatcherObserversOfGoneOwnersAreFreedWithoutAChange() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(LifeStore.self)
        let live = LiveCount()

        for _ in 0..<20_000 {
            let marker = LiveMarker(live)
            dispatcher.observe(owner: ObserverOwner()) { _, _ in withExtendedLifetime(marker) {} }
        }

        // No change came: the list dropped the gone observers as it grew.
        #expect(live.value < 1_000, "closures of observers whose owners are gone, still alive")

        try dispatcher.dispatch(.txnLifeSet, payload: 1)
        #expect(live.value == 0, "a change frees them all")
    }

    @Test(arguments: StreamEnding.allCases)
    fileprivate func changeStreamsThatEndedAreFreedWithoutAChange(ending: StreamEnding) async throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(LifeStore.self)

        // NB: 4,000 streams, not more: each cancelled consumer is a task, and the global executor's threads
        // (two per core at most) are every other test's too.
        for _ in 0..<4_000 {
            let stream = dispatcher.changes
            if ending == .consumerCancelled {
                let consumer = Task { for await _ in stream {} }
                consumer.cancel()
                await consumer.value
            }
        }

        #expect(dispatcher.listedWholeDispatcherObserverCount < 1_000, "observers of ended streams, still listed")

        try dispatcher.dispatch(.txnLifeSet, payload: 1)
        #expect(dispatcher.listedWholeDispatcherObserverCount == 0, "a change frees them all")
    }
}
