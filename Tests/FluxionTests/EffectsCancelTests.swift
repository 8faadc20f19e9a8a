import Foundation
import Testing

@testable import Fluxion

struct Sync: Sendable, Equatable {
    var isSignedIn = true
    var syncs = 0
}

extension ActionName where Payload == Void {
    fileprivate static var startSync: Self { "cancelStartSync" }
    fileprivate static var logOut: Self { "cancelLogOut" }
    fileprivate static var logOutRefused: Self { "cancelLogOutRefused" }
    fileprivate static var restartSync: Self { "cancelRestartSync" }
}

/// Starts a sync that runs until cancelled; a log-out cancels it.
final class SyncStore: Store<Sync>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Sync()) }

    /// Told when a sync's work starts and when it sees its cancellation.
    nonisolated(unsafe) static var events = Recorder<String>()

    override class var handlers: HandlerTable<Sync> {
        HandlerTable()
            .on(.startSync, with: .effects) { sync, _, effects in
                sync.syncs += 1
                let number = sync.syncs
                effects.run(id: "sync") { _ in try await SyncStore.runUntilCancelled(number) }
            }
            .on(.logOut, with: .effects) { sync, _, effects in
                sync.isSignedIn = false
                effects.cancel(id: "sync")
            }
            .on(.logOutRefused, with: .effects) { sync, _, effects in
                effects.cancel(id: "sync")
                throw TestError("refused")
            }
            .on(.restartSync, with: .effects) { sync, _, effects in
                effects.cancel(id: "sync")
                sync.syncs += 1
                let number = sync.syncs
                effects.run(id: "sync") { _ in try await SyncStore.runUntilCancelled(number) }
            }
    }

    /// A sync that runs until it is cancelled, as a poll or a socket reader does.
    static func runUntilCancelled(_ number: Int) async throws {
        events.append("sync \(number) began")
        arrivals.arrive()
        do {
            try await waitUntilCancelled()
        } catch {
            events.append("sync \(number) cancelled")
            arrivals.arrive()
            throw error
        }
    }

    /// Counts each sync's beginning and cancellation, for a test to wait on.
    nonisolated(unsafe) static var arrivals = ArrivalCounter()
}

/// A value behind a lock.
final class Mutexed<Value>: @unchecked Sendable {  // `value` guarded by `lock`
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}

@Suite(.serialized, .timeLimit(.minutes(10))) struct EffectsCancelTests {
    private func makeDispatcher() throws -> Dispatcher {
        SyncStore.events = Recorder()
        SyncStore.arrivals = ArrivalCounter()
        let dispatcher = Dispatcher()
        try dispatcher.register(SyncStore.self)
        return dispatcher
    }

    @Test func aHandlerCancelsTheTasksUnderAnIdWhenItsActionCommits() async throws {
        let dispatcher = try makeDispatcher()
        try dispatcher.dispatch(.startSync)
        #expect(dispatcher.runningTaskCount == 1)

        try dispatcher.dispatch(.logOut)

        await dispatcher.waitUntilDrained()
        #expect(dispatcher.runningTaskCount == 0)
        #expect(SyncStore.events.values.contains("sync 1 cancelled"))
    }

    @Test func anActionThatRollsBackCancelsNothing() async throws {
        let dispatcher = try makeDispatcher()
        try dispatcher.dispatch(.startSync)

        #expect(throws: TestError("refused")) { try dispatcher.dispatch(.logOutRefused) }

        #expect(dispatcher.runningTaskCount == 1)
        #expect(!SyncStore.events.values.contains("sync 1 cancelled"))
        dispatcher.cancelAllTasks()
        await dispatcher.waitUntilDrained()
    }

    @Test func aCancellationTakesItsPlaceAmongTheStepsEffects() async throws {
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.startSync)
        // NB: waited for on a thread of its own, so that no thread of the concurrency pool blocks. The first
        // sync's work has begun: a cancellation that came before would keep it from ever running.
        let arrivals = SyncStore.arrivals
        await onThread { arrivals.wait(for: 1) }

        try dispatcher.dispatch(.restartSync)

        // NB: the first sync began and was cancelled; the second, asked for after the cancellation, began.
        await onThread { arrivals.wait(for: 3) }
        #expect(Set(SyncStore.events.values) == ["sync 1 began", "sync 1 cancelled", "sync 2 began"])
        let effects = try #require(journal.records.last?.effects)
        #expect(effects.map(\.name) == ["cancel sync", "sync"])
        #expect(effects.first?.outcome == .finished)
        dispatcher.cancelAllTasks()
        await dispatcher.waitUntilDrained()
        #expect(SyncStore.events.values.filter { $0.hasSuffix("cancelled") }.count == 2)
    }

    @Test func aCancellationAskedForOutsideItsHandlerCallIsRefusedAndReported() throws {
        let dispatcher = try makeDispatcher()
        let errors = Recorder<TaskError>()
        dispatcher.onTaskError = { errors.append($0) }
        let kept = Mutexed<Effects?>(nil)
        try dispatcher.register(KeepingStore.self) { KeepingStore(keeping: kept) }
        try dispatcher.dispatch(.startSync)

        kept.withLock { $0 }?.cancel(id: "sync")

        #expect(dispatcher.runningTaskCount == 1)
        #expect(errors.values.map(\.kind) == [.refused])
        dispatcher.cancelAllTasks()
    }
}

/// Keeps the `Effects` of its handler, to use it after the handler returned.
final class KeepingStore: Store<Int>, @unchecked Sendable {  // locked by Store
    let kept: Mutexed<Effects?>

    init(keeping kept: Mutexed<Effects?>) {
        self.kept = kept
        super.init(initialState: 0)
    }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.startSync, in: KeepingStore.self, with: .effects) { store, _, _, effects in
            store.kept.withLock { $0 = effects }
        }
    }
}
