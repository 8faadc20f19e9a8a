import Testing

@testable import Fluxion

/// Issue 21.3: no error of a tracked task is silent.
@Suite(.timeLimit(.minutes(10))) struct DispatcherTaskErrorTests {
    @Test(arguments: TaskStart.allCases)
    func anErrorATrackedTaskThrowsReachesOnTaskError(start: TaskStart) async throws {
        let fixture = try CancellationFixture()

        try start.start(TaskWork(id: "job") { _ in throw TestError("offline") }, on: fixture.dispatcher)
        await fixture.dispatcher.waitUntilDrained()

        let error = try #require(fixture.errors.values.first)
        #expect(fixture.errors.count == 1)
        #expect(error.kind == .threw)
        #expect(error.hasTaskID("job"))
        #expect(error.action == start.askingAction)
        #expect(error.error as? TestError == TestError("offline"))
        #expect(error.description.contains("\"job\""))
        #expect(error.description.contains("TestError(offline)"))
    }

    @Test func anErrorATaskWithoutAnIDThrowsReachesOnTaskError() async throws {
        let fixture = try CancellationFixture()

        let task = fixture.dispatcher.dispatchTask { _ in throw TestError("anonymous") }
        await #expect(throws: TestError("anonymous")) { try await task.value }

        let error = try #require(fixture.errors.values.first)
        #expect(error.kind == .threw)
        #expect(error.taskID == nil)
        #expect(error.action == nil)
        #expect(error.error as? TestError == TestError("anonymous"))
    }

    @Test func anErrorATaskStartedByATaskThrowsReachesOnTaskError() async throws {
        let fixture = try CancellationFixture()

        let parent = fixture.dispatcher.dispatchTask(id: "parent") { dispatcher in
            try await dispatcher.dispatchTask(id: "child") { _ in throw TestError("child") }.value
        }
        await #expect(throws: TestError("child")) { try await parent.value }

        let errors = fixture.errors.values
        #expect(errors.map(\.kind) == [.threw, .threw])
        #expect(errors.first?.hasTaskID("child") == true)
        #expect(errors.last?.hasTaskID("parent") == true)
    }

    /// A cancelled task's `CancellationError` is how it ends, not a failure.
    @Test(arguments: TaskStart.allCases, Cancelling.allCases)
    func aCancelledTaskEndingWithCancellationErrorIsNotReported(start: TaskStart, cancelling: Cancelling) async throws {
        let fixture = try CancellationFixture()
        let service = fixture.service
        let threw = LockedBox(false)
        try start.start(
            TaskWork(id: "job") { _ in
                _ = await service.results(for: "late")
                do { try Task.checkCancellation() } catch {
                    threw.value = true
                    throw error
                }
            }, on: fixture.dispatcher)

        try cancelling.cancel("job", startedBy: start, on: fixture.dispatcher)
        await service.respond(to: "late", with: [])
        await fixture.dispatcher.waitUntilDrained()

        #expect(threw.value)
        #expect(fixture.errors.values.isEmpty)
    }

    /// The refused dispatch is reported; the `CancellationError` it throws, ending the task, is not reported again.
    @Test(arguments: TaskStart.allCases)
    func aCancelledTaskEndedByItsRefusedDispatchIsReportedOnceAsRefused(start: TaskStart) async throws {
        let fixture = try CancellationFixture()
        let service = fixture.service
        try start.start(
            TaskWork(id: "job") { dispatcher in
                _ = await service.results(for: "late")
                try dispatcher.dispatch(.noteDown, payload: "late")
            }, on: fixture.dispatcher)

        fixture.dispatcher.cancelTasks(id: "job")
        await service.respond(to: "late", with: [])
        await fixture.dispatcher.waitUntilDrained()

        #expect(fixture.errors.values.map(\.kind) == [.refused])
        #expect(fixture.notebook.state == [])
    }

    @Test func aCancellationErrorThrownByATaskNobodyCancelledIsReported() async throws {
        let fixture = try CancellationFixture()

        let task = fixture.dispatcher.dispatchTask(id: "job") { _ in throw CancellationError() }
        await #expect(throws: CancellationError.self) { try await task.value }

        let error = try #require(fixture.errors.values.first)
        #expect(error.kind == .threw)
        #expect(error.hasTaskID("job"))
        #expect(error.error is CancellationError)
    }

    @Test func withoutOnTaskErrorEachTaskErrorIsALineOnStandardError() async throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(NotebookStore.self)

        let text = try await onNewThread {
            try captureStandardError {
                let release = OneShotSignal()
                let refused = dispatcher.dispatchTask(id: "stderr-refused") { dispatcher in
                    await release.wait()
                    try dispatcher.dispatch(.noteDown, payload: "late")
                }
                let failed = dispatcher.dispatchTask(id: "stderr-failed") { _ in throw TestError("stderr") }
                dispatcher.cancelTasks(id: "stderr-refused")
                release.fire()
                let ended = Gate()
                Task {
                    _ = await refused.result
                    _ = await failed.result
                    ended.open()
                }
                ended.wait()
            }
        }

        let lines = text.split(separator: "\n").map(String.init)
        let failedLines = lines.filter { $0.contains("\"stderr-failed\"") }
        let refusedLines = lines.filter { $0.contains("\"stderr-refused\"") }
        #expect(failedLines.count == 1)
        #expect(failedLines.allSatisfy { $0.hasPrefix("Fluxion: ") && $0.contains("TestError(stderr)") })
        #expect(refusedLines.count == 1)
        #expect(
            refusedLines.allSatisfy {
                $0.hasPrefix("Fluxion: ") && $0.contains("CancellationError")
                    && $0.contains(ActionName<String>.noteDown.rawValue)
            })
        #expect(try dispatcher.store(NotebookStore.self).state == [])
    }
}
