import Testing

@testable import Fluxion

/// A counter of its own, so that messages about other suites' stores are told apart.
private final class DroppedTokenStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: Handlers {
        HandlerTable().on(.droppedTokenAdd) { count, action in count += action.payload }
    }
}

extension ActionName where Payload == Int {
    fileprivate static var droppedTokenAdd: Self { "droppedTokenAdd" }
}

/// `_ = store.observe { … }` never fires: the mistake is said out loud (issue 25.9).
@Suite(.serialized) struct ObservationTokenReleaseTests {
    /// The messages about ``DroppedTokenStore`` while `body` runs.
    private func messages(during body: () throws -> Void) rethrows -> [String] {
        let heard = Recorder<String>()
        ObservationToken.releasedUnheardReporter.withLock { $0 = { heard.append($0) } }
        defer { ObservationToken.releasedUnheardReporter.withLock { $0 = nil } }
        try body()
        return heard.values.filter { $0.contains("DroppedTokenStore") }
    }

    @Test func aTokenDroppedAtOnceIsReported() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(DroppedTokenStore.self)
        let store = try dispatcher.store(DroppedTokenStore.self)

        let reported = try messages {
            _ = store.observe { _ in }
            try dispatcher.dispatch(.droppedTokenAdd, payload: 1)
        }

        #expect(
            reported == [
                "Fluxion: an observer of DroppedTokenStore was released before the store changed, so it never fired; keep its token (`let token = store.observe { … }`) for as long as you want the changes, or cancel it"
            ])
    }

    @Test func aTokenKeptOrCancelledIsNotReported() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(DroppedTokenStore.self)
        let store = try dispatcher.store(DroppedTokenStore.self)
        let heard = Recorder<Int>()

        let reported = try messages {
            let kept = store.observe { heard.append($0.newState) }
            try dispatcher.dispatch(.droppedTokenAdd, payload: 1)
            withExtendedLifetime(kept) {}
            store.observe { _ in }.cancel()
        }

        #expect(reported.isEmpty)
        #expect(heard.values == [1])
    }
}
