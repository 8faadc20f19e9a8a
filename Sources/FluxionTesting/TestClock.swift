import Fluxion

/// A clock whose time moves only when a test advances it: async work that sleeps on it, and persistence
/// saves scheduled on it, run when the test says, with no real waiting.
///
/// Give your stores and effects the clock they sleep on through their
/// factories (`any Clock<Duration>`), and a ``TestClock`` in tests:
///
/// ```swift
/// try test.register(SearchStore.self) { SearchStore(clock: test.clock) }
/// try test.dispatch(.search, payload: "mil") { $0.modify(SearchStore.self) { $0.query = "mil" } }
/// await test.clock.advance(by: .milliseconds(300))  // the debounce ends: the search runs
/// try await test.receive(.resultsLoaded) { $0.modify(SearchStore.self) { $0.results = ["milk"] } }
/// ```
///
/// ``advance(by:timeout:fileID:filePath:line:column:)`` moves time to each
/// deadline it passes in turn and wakes what was due there. A clock made with
/// ``init()`` only yields between steps.
///
/// The clock of a ``TestDispatcher`` runs the tasks the dispatcher starts with
/// `dispatchTask` on an executor of its own, which their child tasks (`async let`,
/// task groups) and the default actors they call share. Before each step and at
/// the end it waits until the tasks have settled: no job of theirs or of their
/// child tasks is waiting to run or running, and every task still running sleeps
/// on the clock. So a task that races a response against a timeout in two child
/// tasks has dispatched the response when the advance to it returns, a task that
/// sleeps again after waking is woken again within the same advance, and the test
/// never races its tasks. Two things it cannot see:
/// - Work on the main actor, or on an actor with an executor of its own, runs
///   elsewhere: while it does, the clock waits only until there are as many
///   sleeps on the clock as running tasks, so a task whose other child task
///   sleeps counts as settled.
/// - What a child task waits for: a task one of whose child tasks sleeps on the
///   clock counts as settled even while a sibling waits for something else; the
///   advance fails (after its timeout) once nothing of the task sleeps on the clock.
///   Swift shows an executor a task's jobs, not whether the task has ended: a
///   sibling that waits elsewhere looks exactly like one that has ended before
///   its parent awaited it, which must settle.
/// - On Apple systems without task executors (before macOS 15, iOS 18, tvOS 18,
///   watchOS 11 and visionOS 2) the tasks run as usual and that count is all
///   the clock checks: a task whose child tasks sleep may settle before a woken
///   child has finished.
///
/// Its ``persistenceScheduler`` puts persistence on the same time: pass it as
/// ``/Fluxion/Persistence/scheduler`` and a debounced save runs, on the advancing
/// thread, when time passes its deadline.
public final class TestClock: Clock, Sendable {
    /// A point in a test clock's time: how long after the clock's start.
    ///
    /// ```swift
    /// await test.clock.advance(by: .seconds(3))
    /// #expect(test.clock.now == TestClock.Instant(offset: .seconds(3)))
    /// ```
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock's start.
        public let offset: Duration

        /// The instant `offset` after the clock's start.
        ///
        /// ```swift
        /// #expect(TestClock().now == TestClock.Instant(offset: .zero))
        /// ```
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` after this one.
        ///
        /// ```swift
        /// let deadline = clock.now.advanced(by: .seconds(2))
        /// ```
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The time from this instant to `other`; negative when `other` comes first.
        ///
        /// ```swift
        /// let start = clock.now
        /// await clock.advance(by: .milliseconds(300))
        /// #expect(start.duration(to: clock.now) == .milliseconds(300))
        /// ```
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Whether `lhs` comes before `rhs`.
        ///
        /// ```swift
        /// #expect(TestClock.Instant(offset: .seconds(1)) < TestClock.Instant(offset: .seconds(2)))
        /// ```
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let timeline = Guarded(Timeline())
    /// Told when a sleep or a save is added or removed and, for the clock of a test dispatcher, when one of
    /// its tasks ends and when their executor has run its last job.
    let changed: Signal
    /// Waits until the work the clock wakes has settled; set by a test dispatcher.
    private let settled: (@Sendable (TestClock, ContinuousClock.Instant) async -> String?)?

    /// Creates a clock at ``Instant/offset`` zero, not tied to a dispatcher.
    ///
    /// Its ``advance(by:timeout:fileID:filePath:line:column:)`` wakes what is
    /// due and only yields between steps: it waits for no task to settle. In a
    /// test of stores, use the ``TestDispatcher/clock`` of a ``TestDispatcher``
    /// instead.
    ///
    /// ```swift
    /// let clock = TestClock()
    /// let persistence = Persistence<Notes>(storage: storage, key: "notes", scheduler: clock.persistenceScheduler)
    /// ```
    public convenience init() {
        self.init(changed: Signal(), settled: nil)
    }

    /// Creates a clock that, before each step of time, waits for `settled` to return `nil`, or at its
    /// deadline what is still busy.
    init(changed: Signal, settled: (@Sendable (TestClock, ContinuousClock.Instant) async -> String?)?) {
        self.changed = changed
        self.settled = settled
    }

    /// The clock's time: its start, moved on only by ``advance(by:timeout:fileID:filePath:line:column:)``
    /// and ``run(timeout:fileID:filePath:line:column:)``.
    public var now: Instant { timeline.withLock { $0.now } }

    /// Zero: the clock wakes each sleep at its deadline exactly.
    public var minimumResolution: Duration { .zero }

    /// How many sleeps and scheduled saves wait for time to pass.
    public var pendingCount: Int { timeline.withLock { $0.entries.count } }

    /// Suspends until a test advances the clock to `deadline`.
    ///
    /// The code under test calls it, through the `any Clock<Duration>` it was
    /// given; `sleep(for:)` comes here too:
    ///
    /// ```swift
    /// try await clock.sleep(until: clock.now.advanced(by: .milliseconds(300)))
    /// ```
    ///
    /// A deadline already reached returns at once.
    ///
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Not used: the clock wakes the sleep at `deadline` exactly.
    /// - Throws: `CancellationError` when the task is cancelled first; it then
    ///   stops waiting at once.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = timeline.withLock { $0.makeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = timeline.withLock { $0.add(.sleep(continuation), id: id, at: deadline) }
                if let outcome { continuation.resume(with: outcome) }
                changed.notify()
            }
        } onCancel: {
            timeline.withLock { $0.cancel(id) }?.resume(throwing: CancellationError())
            changed.notify()
        }
    }

    /// A persistence scheduler on this clock's time: saves run when a test advances the clock past them.
    ///
    /// Pass it as ``/Fluxion/Persistence/scheduler``; a debounced save then
    /// runs on the advancing thread when time passes its deadline.
    public var persistenceScheduler: any PersistenceScheduler { Scheduler(clock: self) }

    private struct Scheduler: PersistenceScheduler {
        let clock: TestClock
        var now: Duration { clock.now.offset }
        func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
            clock.schedule(after: delay, work)
        }
    }

    /// Runs `work` when the clock has advanced by `delay`.
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        timeline.withLock { timeline in
            let id = timeline.makeID()
            _ = timeline.add(.work(work), id: id, at: timeline.now.advanced(by: max(delay, .zero)))
        }
    }

    /// Moves time forward by `duration`, waking, in deadline order, the sleeps and saves due meanwhile.
    ///
    /// The clock of a ``TestDispatcher`` lets the dispatcher's tasks settle
    /// after each wake-up, before the next one and before returning: when this
    /// returns, every such task, child tasks included, has ended or sleeps on
    /// this clock, and what they dispatched meanwhile has reached the stores
    /// (see ``TestClock`` for what it cannot see). It fails the test when the
    /// tasks do not settle within `timeout`: a task that waits for something
    /// else, or loops without sleeping on this clock, cannot be made
    /// deterministic by a clock.
    ///
    /// ```swift
    /// try test.dispatch(.search, payload: "mi") { $0.modify(SearchStore.self) { $0.query = "mi" } }
    /// await test.clock.advance(by: .milliseconds(300))  // the debounce ends: the search runs
    /// try await test.receive(.resultsLoaded) { $0.modify(SearchStore.self) { $0.results = ["milk", "mint"] } }
    /// ```
    ///
    /// - Parameters:
    ///   - duration: How far to move time; a negative duration moves it not at all.
    ///   - timeout: How long the tasks may take to settle, in real time; 30 seconds by default.
    ///   - fileID: The file a failure is reported in; the caller's by default.
    ///   - filePath: The path of that file; the caller's by default.
    ///   - line: The line a failure is reported at; the caller's by default.
    ///   - column: The column a failure is reported at; the caller's by default.
    public func advance(
        by duration: Duration,
        timeout: Duration = .seconds(30),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let end = now.advanced(by: max(duration, .zero))
        let deadline = ContinuousClock.now + timeout
        while true {
            guard await settle(before: deadline, at: site) else { return }
            guard let due = timeline.withLock({ $0.takeDue(upTo: end) }) else { break }
            switch due {
            case .sleep(let continuation): continuation.resume()
            case .work(let work): work()
            }
        }
        timeline.withLock { $0.now = max($0.now, end) }
    }

    /// Advances time from one deadline to the next until nothing waits on the clock any more.
    ///
    /// Each step is an ``advance(by:timeout:fileID:filePath:line:column:)`` to
    /// the earliest sleep or save, so the tasks of a ``TestDispatcher`` settle
    /// at each, and time stops at the last deadline something was woken at: a
    /// timeout that a response cancelled does not move it. Fails the test when
    /// something still waits after `timeout`, as a timer that never stops does.
    ///
    /// ```swift
    /// try test.dispatch(.search, payload: "b") { $0.modify(SearchStore.self) { $0.query = "b" } }
    /// await test.clock.run()
    /// try await test.receive(.resultsLoaded) { $0.modify(SearchStore.self) { $0.results = ["bread"] } }
    /// #expect(test.clock.now.offset == .milliseconds(300))
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: How long, in real time, until nothing waits on the clock; 30 seconds by default.
    ///   - fileID: The file a failure is reported in; the caller's by default.
    ///   - filePath: The path of that file; the caller's by default.
    ///   - line: The line a failure is reported at; the caller's by default.
    ///   - column: The column a failure is reported at; the caller's by default.
    public func run(
        timeout: Duration = .seconds(30),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let deadline = ContinuousClock.now + timeout
        while await settle(before: deadline, at: site), let next = timeline.withLock({ $0.entries.first?.deadline }) {
            guard ContinuousClock.now < deadline else {
                return TestFailure.record("\(pendingCount) sleep(s) or save(s) still wait after \(timeout)", at: site)
            }
            await advance(
                by: now.duration(to: next), timeout: timeout, fileID: fileID, filePath: filePath, line: line,
                column: column)
        }
    }

    /// Waits for the woken work to settle; `false`, after reporting it, when it did not in time.
    private func settle(before deadline: ContinuousClock.Instant, at site: CallSite) async -> Bool {
        guard let settled else {
            await Task.yield()
            return true
        }
        guard let failure = await settled(self, deadline) else { return true }
        TestFailure.record(failure, at: site)
        return false
    }

    /// How many sleeps (not saves) wait on the clock.
    var sleeperCount: Int {
        timeline.withLock { $0.entries.count { if case .sleep = $0.wake { true } else { false } } }
    }
}

/// A test clock's time and what waits for it, in deadline order.
private struct Timeline {
    enum Wake {
        case sleep(CheckedContinuation<Void, any Error>)
        case work(@Sendable () -> Void)
    }

    struct Entry {
        let id: UInt64
        let deadline: TestClock.Instant
        let wake: Wake
    }

    var now = TestClock.Instant(offset: .zero)
    /// Sorted by deadline, then by when they were added.
    private(set) var entries: [Entry] = []
    /// Ids handed out for sleeps not added yet, and those of them cancelled meanwhile.
    private var unadded: Set<UInt64> = []
    private var cancelled: Set<UInt64> = []
    private var nextID: UInt64 = 0

    mutating func makeID() -> UInt64 {
        defer { nextID += 1 }
        unadded.insert(nextID)
        return nextID
    }

    /// Adds a wake-up; returns how to resume at once instead when it is due already or was cancelled.
    mutating func add(_ wake: Wake, id: UInt64, at deadline: TestClock.Instant) -> Result<Void, any Error>? {
        unadded.remove(id)
        if cancelled.remove(id) != nil { return .failure(CancellationError()) }
        if deadline <= now, case .sleep = wake { return .success(()) }
        let index = entries.firstIndex { $0.deadline > deadline } ?? entries.endIndex
        entries.insert(Entry(id: id, deadline: deadline, wake: wake), at: index)
        return nil
    }

    /// Removes a sleep that was cancelled and returns it; remembers the id when it has not been added yet.
    mutating func cancel(_ id: UInt64) -> CheckedContinuation<Void, any Error>? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else {
            if unadded.remove(id) != nil { cancelled.insert(id) }
            return nil
        }
        guard case .sleep(let continuation) = entries.remove(at: index).wake else { return nil }
        return continuation
    }

    /// Takes the first wake-up due by `end`, and moves time to its deadline.
    mutating func takeDue(upTo end: TestClock.Instant) -> Wake? {
        guard let first = entries.first, first.deadline <= end else { return nil }
        entries.removeFirst()
        now = max(now, first.deadline)
        return first.wake
    }
}
