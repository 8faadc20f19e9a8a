import Dispatch
import Foundation
import Testing

// Swift Testing runs every test's tasks on Swift's global executor. On Linux its threads are Dispatch's
// global queues' (`DispatchQueue.global()` runs on them too): one per core, up to two per core while some
// block. A test that blocks one of them — at a gate, on a group or a semaphore, for another thread or a
// process, or through a long synchronous loop — takes it from every other test's tasks meanwhile; four such
// tests at once stopped every task of the suite for half a minute on a busy two-core machine (issue 44).
// So a test that blocks runs on threads of its own (`.onThreadsOfItsOwn`), and the waits of this target's
// support check that they are not made on the pool.

/// Runs each job on a new thread of its own, never on the global executor's threads.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let thread = Thread {
            Thread.current.threadDictionary[ownThreadKey] = true
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// Runs each test (each case of a parameterized one) on threads of its own, so that it may block: its
/// jobs, and those of its child tasks, run on new threads, not on those of Swift's global executor.
///
/// For a suite of tests that wait for other threads or run long synchronous loops: `@Suite(.onThreadsOfItsOwn)`.
/// Plain `Task`s the test starts (and a dispatcher's tasks) still run on the global executor.
struct OnThreadsOfItsOwn: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            return try await function()
        }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OnThreadsOfItsOwn {
    /// Runs each test on threads of its own, off Swift's global executor: see ``OnThreadsOfItsOwn``.
    static var onThreadsOfItsOwn: Self { Self() }
}

/// The thread-dictionary key that marks a thread of ``ThreadPerJobExecutor``.
private let ownThreadKey = "FluxionTests.ownThread"

/// Whether the calling thread is one of ``ThreadPerJobExecutor``'s.
func isOnThreadOfItsOwn() -> Bool {
    Thread.current.threadDictionary[ownThreadKey] != nil
}

/// Records an issue if the calling thread runs a task on Swift's global executor: `what` is about to block
/// it. A test that blocks runs with `.onThreadsOfItsOwn`, or waits with `await`.
func expectMayBlock(
    _ what: String, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
) {
    guard withUnsafeCurrentTask(body: { $0 != nil }) else { return }  // NB: a thread of its own, or Dispatch's
    guard !isOnThreadOfItsOwn() else { return }
    guard DispatchQueue.getSpecific(key: mainQueueKey) == nil else { return }  // the main actor's
    Issue.record(
        Comment(
            rawValue: "\(what) blocks a thread of Swift's global executor, which every test's tasks need: "
                + "run the test with .onThreadsOfItsOwn, or await instead"),
        sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Marks the main queue, which runs the main actor's jobs (not always on the main thread: on Linux,
/// `Thread.isMainThread` is false there).
private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Runs `body` on a new thread, off Swift's global executor, so that it may block; returns what it returns.
func onNewThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// Runs `body` on a new thread, off Swift's global executor, so that it may block; returns what it returns.
func onNewThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// How long a test waits, at most, for what only a hang would keep from happening: long enough that reaching
/// it means a hang, never a busy machine.
let hangGuard: DispatchTimeInterval = .seconds(hangGuardSeconds)
let hangGuardSeconds = 300

/// Whether Dispatch's global queues run on the threads of Swift's global executor, as on Linux.
#if os(Linux)
let globalQueuesAreTheGlobalExecutors = true
#else
let globalQueuesAreTheGlobalExecutors = false
#endif

/// The calling thread's name as the system knows it, on Linux ("" elsewhere): Dispatch names its workers
/// after their queue, and the system keeps the last 15 characters.
func currentThreadName() -> String {
    #if os(Linux)
    let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
    return name.trimmingCharacters(in: .newlines)
    #else
    return ""
    #endif
}
