import Foundation
import Testing

@testable import Fluxion

extension ActionName where Payload == Void {
    fileprivate static var pollAfterPause: Self { "shutdownPollAfterPause" }
    fileprivate static var poll: Self { "shutdownStartPoll" }
}

/// Its handler waits at `pause` (another thread shuts the dispatcher down meanwhile), then asks for a
/// poll that never ends on its own.
final class PausingPollStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    static let paused = LockedBox(ArrivalCounter())
    static let resume = LockedBox(Gate())

    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.pollAfterPause, with: .effects) { polls, _, effects in
            paused.value.arrive()
            resume.value.wait()
            polls += 1
            effects.run(id: "poll") { _ in try await waitUntilCancelled() }
        }
    }
}

/// Issue 43.2: `shutdown()` refuses new work, ends every task — an action in flight's too — and returns
/// only when nothing of the dispatcher runs or is kept.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DispatcherShutdownEndTests {
    @Test func shutdownEndsThePollAnActionInFlightCommitsAfterShutdownBegan() async throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(PausingPollStore.self)
        let (paused, resume) = (ArrivalCounter(), Gate())
        (PausingPollStore.paused.value, PausingPollStore.resume.value) = (paused, resume)
        // NB: a task that hears shutdown's cancellation: the action in flight goes on only then.
        let began = Gate()
        dispatcher.dispatchTask(id: "sentinel") { _ in
            defer { began.open() }
            try await waitUntilCancelled()
        }
        let dispatched = DispatchGroup()
        dispatched.runOnNewThread { try? dispatcher.dispatch(.pollAfterPause) }
        await onThread { paused.wait(for: 1) }

        let shutDown = Task { await dispatcher.shutdown() }
        await onThread {
            began.wait()
            resume.open()
        }

        let returned = await returnsInTime(seconds: 30) { await shutDown.value }
        #expect(returned, "shutdown() hung: it waits for a poll an action in flight committed after it began")
        await onThread { dispatched.wait() }
        #expect(try dispatcher.store(PausingPollStore.self).state == 1, "the action in flight ran to its end")
        #expect(dispatcher.runningTaskCount == 0)
        if !returned { dispatcher.cancelAllTasks() }
    }

    /// After `shutdown()` returns, letting go of the dispatcher frees it and its stores at once; tried many
    /// times, as what kept it (the flush's work item, the tasks' frames, a task forgotten just before the last
    /// one) let go of it a moment later.
    @Test func afterShutdownTheDispatcherAndItsStoresAreFreedAtOnce() async throws {
        let storage = InMemoryStateStorage()
        var kept = 0
        for _ in 0..<1_000 {
            weak var weakDispatcher: Dispatcher?
            weak var weakStore: PollStore?
            do {
                let dispatcher = Dispatcher()
                try dispatcher.register(PollStore.self)
                try dispatcher.register(
                    NotesStore.self, persistence: Persistence(storage: storage, key: "notes", debounce: .seconds(3_600))
                )
                try dispatcher.dispatch(.poll)
                try dispatcher.dispatch(.addNote, payload: "kept")
                // NB: tasks that end together: the last to be forgotten may resume shutdown() while another,
                // forgotten a moment before, still holds the dispatcher.
                for socket in 0..<4 {
                    dispatcher.dispatchTask(id: "socket \(socket)") { _ in try await waitUntilCancelled() }
                }
                (weakDispatcher, weakStore) = (dispatcher, try dispatcher.store(PollStore.self))

                await dispatcher.shutdown()
            }
            if weakDispatcher != nil || weakStore != nil { kept += 1 }
        }
        #expect(kept == 0, "\(kept) of 1,000 dispatchers outlived their last reference after shutdown()")
    }

    /// Two tasks end together: the last one forgotten resumes the drain while the other, forgotten just
    /// before it, still holds the dispatcher. `shutdown()` returns only once that one has let go.
    @Test func shutdownWaitsForATaskForgottenButStillHoldingTheDispatcher() async throws {
        let dispatcher = Dispatcher()
        dispatcher.taskHolds.add(1)  // NB: as a task does when tracked; it lets go below
        let returned = LockedBox(false)
        let shutDown = Task {
            await dispatcher.shutdown()
            returned.value = true
        }
        while !returned.value, dispatcher.taskHolds.waiterCount == 0 { await Task.yield() }

        #expect(!returned.value, "shutdown() returned while a task still held the dispatcher")
        dispatcher.taskHolds.release()
        await shutDown.value
        #expect(returned.value)
    }

    /// A step recorded into a journal file is in the file the moment `shutdown()` returns.
    @Test func shutdownWritesTheStepsTheJournalsFileHasPending() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("shutdown-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = Dispatcher()
        try dispatcher.register(NotesStore.self)
        let journal = try Journal(recording: dispatcher, writingTo: url)
        // NB: a long line, so that the journal's queue is still writing it when the dispatcher's work is done.
        let note = String(repeating: "a long note; ", count: 200_000)
        try dispatcher.dispatch(.addNote, payload: note)

        await dispatcher.shutdown()

        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(ActionName<String>.addNote.rawValue), "the step's line was not in the file yet")
        journal.stop()
    }

    @Test func aDispatcherThatShutDownRefusesNewWork() async throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(NotesStore.self)
        let ran = LockedBox(false)
        await dispatcher.shutdown()

        #expect(throws: FluxionError.dispatcherShutDown(action: ActionName<String>.addNote.rawValue)) {
            try dispatcher.dispatch(.addNote, payload: "late")
        }
        #expect(throws: FluxionError.dispatcherShutDown(action: AnyAction.batchName)) {
            try dispatcher.batch { batch in try batch.dispatch(.addNote, payload: "late") }
        }
        let task = dispatcher.dispatchTask { _ in ran.value = true }
        await #expect(throws: CancellationError.self) { try await task.value }

        #expect(!ran.value, "a task started after shutdown() never runs its work")
        #expect(try dispatcher.store(NotesStore.self).state.notes == [], "reading still works")
        #expect(dispatcher.runningTaskCount == 0)
    }
}

/// Runs `body`; returns `false` if it has not returned within `seconds` (a hang guard: it means hung).
func returnsInTime(seconds: Int, _ body: @escaping @Sendable () async -> Void) async -> Bool {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    return await withCheckedContinuation { (returned: CheckedContinuation<Bool, Never>) in
        Thread { returned.resume(returning: done.wait(timeout: .now() + .seconds(seconds)) == .success) }.start()
    }
}
