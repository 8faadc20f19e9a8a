import Fluxion
import Testing

extension ActionName where Payload == Void {
    fileprivate static var startPoll: Self { "shutdownStartPoll" }
    fileprivate static var keepEffects: Self { "shutdownKeepEffects" }
}

/// Starts tracked tasks as a dispatcher would, and keeps them, so that a test can wait for each to complete.
final class KeepingTaskStarter: TaskStarter {
    private let completions = LockedBox<[@Sendable () async -> Void]>([])

    func start<Value: Sendable>(
        priority: TaskPriority?, _ operation: @escaping @Sendable () async throws -> Value
    ) -> Task<Value, any Error> {
        let task = Task(priority: priority, operation: operation)
        completions.withValue { $0.append { _ = try? await task.value } }
        return task
    }

    /// Returns once every task it started has completed, and let go of what its operation kept.
    func waitForAll() async {
        for completion in completions.value { await completion() }
    }
}

/// Keeps the ``Effects`` its handler is given, past the call.
final class EffectsKeepingStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    static let kept = LockedBox<Effects?>(nil)

    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.keepEffects, with: .effects) { count, _, effects in
            count += 1
            kept.value = effects
        }
    }
}

/// Starts a poll that never ends on its own.
final class PollStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.startPoll, with: .effects) { polls, _, effects in
            polls += 1
            effects.run(id: "poll") { _ in
                try await waitUntilCancelled()
            }
        }
    }
}

/// A dispatcher ends: its running tasks keep it alive until `shutdown()` ends them.
@Suite(.timeLimit(.minutes(10))) struct DispatcherShutdownTests {
    @Test func afterShutdownNothingOfTheDispatcherOutlivesTheLastReference() async throws {
        weak var weakDispatcher: Dispatcher?
        weak var weakStore: PollStore?
        var task: Task<Void, any Error>?
        do {
            let dispatcher = Dispatcher()
            try dispatcher.register(PollStore.self)
            try dispatcher.dispatch(.startPoll)
            task = dispatcher.dispatchTask(id: "socket") { _ in
                try await waitUntilCancelled()
            }
            (weakDispatcher, weakStore) = (dispatcher, try dispatcher.store(PollStore.self))
            #expect(dispatcher.runningTaskCount == 2)

            await dispatcher.shutdown()

            #expect(dispatcher.runningTaskCount == 0)
        }
        // NB: the task's work has returned; its frame lets go of the dispatcher as it completes.
        await #expect(throws: CancellationError.self) { try await task?.value }
        #expect(weakDispatcher == nil)
        #expect(weakStore == nil)
    }

    @Test func aDispatcherLetGoWhileItsTaskRunsLivesUntilTheTaskEnds() async throws {
        weak var weakDispatcher: Dispatcher?
        var task: Task<Void, any Error>?
        do {
            let dispatcher = Dispatcher()
            task = dispatcher.dispatchTask(id: "socket") { _ in
                try await waitUntilCancelled()
            }
            weakDispatcher = dispatcher
        }

        #expect(weakDispatcher != nil)  // NB: the running task holds it, as the docs say

        await weakDispatcher?.shutdown()
        await #expect(throws: CancellationError.self) { try await task?.value }
        #expect(weakDispatcher == nil)
    }

    @Test func aDispatcherLetGoWhileItsEffectRunsLivesUntilTheEffectEnds() async throws {
        weak var weakDispatcher: Dispatcher?
        let starter = KeepingTaskStarter()
        do {
            let dispatcher = Dispatcher()
            dispatcher.taskStarter = starter
            try dispatcher.register(PollStore.self)
            try dispatcher.dispatch(.startPoll)
            #expect(dispatcher.runningTaskCount == 1)
            weakDispatcher = dispatcher
        }

        #expect(weakDispatcher != nil)  // NB: the effect's task holds it, as the docs say

        await weakDispatcher?.shutdown()
        await starter.waitForAll()
        #expect(weakDispatcher == nil)
    }

    /// An `Effects` kept past its handler's call keeps no dispatcher alive; asked then, it starts nothing.
    @Test func effectsKeptPastTheirHandlerDoNotKeepTheDispatcher() throws {
        weak var weakDispatcher: Dispatcher?
        do {
            let dispatcher = Dispatcher()
            try dispatcher.register(EffectsKeepingStore.self)
            try dispatcher.dispatch(.keepEffects)
            weakDispatcher = dispatcher
        }

        #expect(weakDispatcher == nil)
        EffectsKeepingStore.kept.value?.run { _ in Issue.record("an effect of a dispatcher that is gone ran") }
        EffectsKeepingStore.kept.value = nil
    }

    @Test func shutdownWritesWhatPersistenceHasPending() async throws {
        let storage = InMemoryStateStorage()
        let dispatcher = Dispatcher()
        try dispatcher.register(
            NotesStore.self, persistence: Persistence(storage: storage, key: "notes", debounce: .seconds(3_600)))
        try dispatcher.dispatch(.addNote, payload: "kept")

        await dispatcher.shutdown()

        #expect(storage.load(key: "notes") != nil)
    }
}
