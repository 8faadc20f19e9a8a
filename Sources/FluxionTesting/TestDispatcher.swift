import Fluxion

/// A dispatcher for tests that checks every change every action makes, exhaustively.
///
/// Register the stores under test (seeded if you like), dispatch, and say
/// what each store's state must become, as a change of its state before:
///
/// ```swift
/// @Test func addingATodoCountsIt() async throws {
///     let test = TestDispatcher()
///     try test.register(TodoStore.self)
///     try test.register(StatsStore.self, initialState: Stats(total: 0))
///
///     try test.dispatch(.addTodo, payload: "Buy milk") {
///         $0.modify(TodoStore.self) { $0.items.append(Todo(title: "Buy milk")) }
///         $0.modify(StatsStore.self) { $0.total = 1 }
///     }
///     await test.finish()
/// }
/// ```
///
/// A store that changed other than the expectation says — changed and not
/// named, or named with another state — is a test failure at the
/// expectation's line, with a field-by-field diff (`path: expected → actual`).
/// A dispatch that throws is checked too, before its error is rethrown: what
/// the action committed before the error (a middleware may throw after
/// passing it on), or, if it committed nothing, that nothing changed.
///
/// Actions that reach the stores after the one dispatched — queued by
/// handlers, observers or middleware, or dispatched by tasks — must be
/// asserted in order with ``receive(_:timeout:fileID:filePath:line:column:_:)-(ActionName<Payload>,_,_,_,_,_,_)``,
/// which can check the payload and the error they carry as well:
///
/// ```swift
/// try await test.receive(.searchFinished, payload: ["milk"]) {
///     $0.modify(SearchStore.self) { $0.results = ["milk"] }
/// }
/// ```
///
/// The errors of the tasks ``dispatcher`` tracks (a ``/Fluxion/TaskError`` each: what
/// a task threw, or a dispatch of its that was refused or dropped) must be
/// received too, with ``receiveTaskError(id:kind:timeout:fileID:filePath:line:column:_:)``:
///
/// ```swift
/// try await test.receiveTaskError(id: "save", kind: .threw) { #expect($0.error is DiskFullError) }
/// ```
///
/// ``finish(timeout:fileID:filePath:line:column:)`` fails the test for each
/// task error and, exhaustively, each action left unasserted, and for tasks
/// still running. With ``Exhaustivity/off``, only the stores an expectation
/// names are checked, and unasserted actions (not task errors) are let go.
///
/// A batch is one step: ``batch(_:fileID:filePath:line:column:expecting:)``
/// states what all its actions changed together, and a batch that other code
/// runs is received as one action named `Fluxion.batch`, once it has committed.
/// Async work that sleeps on ``clock`` runs when the test advances it.
///
/// Failures are reported through Swift Testing when a Swift Testing test is
/// running, through XCTest otherwise.
public final class TestDispatcher: Sendable {
    /// The real dispatcher under test: register, observe or dispatch on it directly when you need to.
    public let dispatcher: Dispatcher
    /// How much this test dispatcher checks.
    public let exhaustivity: Exhaustivity
    /// A clock for the stores and tasks under test to sleep on; time moves only when the test advances it.
    ///
    /// Before each step of time it waits until every task ``dispatcher`` runs
    /// has ended or sleeps on the clock; see ``TestClock``.
    public let clock: TestClock
    /// What the test dispatcher recorded and what the test asserted.
    let log = TestLog()

    /// Creates a test dispatcher over `dispatcher`, a new one by default.
    ///
    /// Pass the dispatcher your app builds (its stores registered, its
    /// dependencies injected) and ``track(_:)`` the stores it registered;
    /// from then on every action that reaches them is recorded.
    ///
    /// ```swift
    /// let test = TestDispatcher()  // a new dispatcher: register the stores under test
    ///
    /// let app = try TodoApp(storage: InMemoryStateStorage(), key: "todos")
    /// let wired = TestDispatcher(app.dispatcher)  // your app's dispatcher, as it builds it
    /// try wired.track(TodoStore.self)
    /// ```
    ///
    /// It adds a middleware to `dispatcher` that records each action, and
    /// sets its ``/Fluxion/Dispatcher/onTaskError`` to record task errors:
    /// replace neither. Its ``clock`` starts the tasks `dispatcher` runs.
    ///
    /// - Parameters:
    ///   - dispatcher: The dispatcher under test; a new one by default.
    ///   - exhaustivity: How much to check; ``Exhaustivity/on`` by default.
    public init(_ dispatcher: Dispatcher = Dispatcher(), exhaustivity: Exhaustivity = .on) {
        self.exhaustivity = exhaustivity
        self.dispatcher = dispatcher
        self.clock = TestClock(runningTasksOf: dispatcher)
        dispatcher.addMiddleware(StepRecorder(log: log))
        dispatcher.onTaskError = { [log] in log.record($0) }
    }

    /// Registers a store type created with `init()`, its state seeded with `initialState` if given, and tracks it.
    ///
    /// ```swift
    /// try test.register(TodoStore.self)
    /// try test.register(StatsStore.self, initialState: Stats(total: 0))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The store type, `DefaultInitializable`.
    ///   - initialState: The state the store starts with; `nil` for the one its `init()` gives it.
    /// - Throws: What ``/Fluxion/Dispatcher/register(_:initialState:)`` throws: a type registered already, say.
    public func register<State: Sendable & Equatable, S: Store<State> & DefaultInitializable>(
        _ type: S.Type,
        initialState: State? = nil
    ) throws {
        try register(type, initialState: initialState) { S() }
    }

    /// Not available: the dispatcher cannot create a store type that is not `DefaultInitializable`.
    ///
    /// Conform the store type to `DefaultInitializable`, or register it with
    /// a factory, ``register(_:initialState:factory:)``.
    @available(
        *, unavailable,
        message:
            "register(_:initialState:) creates the store with init(): conform the store type to DefaultInitializable, or pass a factory, as in register(MyStore.self) { MyStore(api: api) }"
    )
    public func register<State: Sendable & Equatable, S: Store<State>>(_ type: S.Type, initialState: State? = nil)
        throws
    {}

    /// Registers a store type created with `factory`, its state seeded with `initialState` if given, and tracks it.
    ///
    /// ```swift
    /// try test.register(SearchStore.self) { SearchStore(clock: test.clock) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The store type.
    ///   - initialState: The state the store starts with; `nil` for the one `factory` gives it.
    ///   - factory: Creates the store, with the test doubles it needs (``clock``, say).
    /// - Throws: What ``/Fluxion/Dispatcher/register(_:factory:)`` throws: a type registered already, say.
    public func register<State: Sendable & Equatable, S: Store<State>>(
        _ type: S.Type,
        initialState: State? = nil,
        factory: @escaping @Sendable () -> S
    ) throws {
        if let initialState {
            try dispatcher.register(type, initialState: initialState, factory: factory)
        } else {
            try dispatcher.register(type, factory: factory)
        }
        try track(type)
    }

    /// Checks a store type registered on ``dispatcher`` by other code (your app's setup), from its state now.
    ///
    /// ```swift
    /// let test = TestDispatcher(app.dispatcher)
    /// try test.track(TodoStore.self)
    /// try test.track(StatsStore.self)
    /// ```
    ///
    /// - Throws: ``/Fluxion/FluxionError/storeNotRegistered(_:waitingStore:action:)`` for a type that is not registered.
    public func track<State: Sendable & Equatable, S: Store<State>>(_ type: S.Type) throws {
        let store = try dispatcher.store(type)
        log.track(
            ObjectIdentifier(type),
            TestLog.Tracked(
                name: "\(type)", read: { store.state }, isEqual: { ($0 as? State) == ($1 as? State) }))
    }

    /// Ends the test: waits up to `timeout` for the dispatcher's tasks to end, then fails the test
    /// for any still running, for each task error not received and, exhaustively, for any action
    /// not received.
    ///
    /// ```swift
    /// try test.dispatch(.addTodo, payload: "Buy milk") {
    ///     $0.modify(TodoStore.self) { $0.items.append(Todo(title: "Buy milk")) }
    /// }
    /// await test.finish()
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: How long the dispatcher's tasks may take to end, in real time; 30 seconds by default.
    ///   - fileID: The file a failure is reported in; the caller's by default.
    ///   - filePath: The path of that file; the caller's by default.
    ///   - line: The line a failure is reported at; the caller's by default.
    ///   - column: The column a failure is reported at; the caller's by default.
    public func finish(
        timeout: Duration = .seconds(30),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        await waitUntilDrained(timeout: timeout)
        let running = dispatcher.runningTaskCount
        if running > 0 {
            TestFailure.record("\(running) task(s) started with dispatchTask still run after \(timeout)", at: site)
        }
        failForUnreceivedActions(before: nil, at: site)
        failForTaskErrors(at: site)
    }

    /// Waits until the dispatcher is drained, or `timeout` has passed.
    private func waitUntilDrained(timeout: Duration) async {
        let dispatcher = self.dispatcher
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        // NB: `waitUntilDrained()` does not end when cancelled: it is left to end with the dispatcher's work.
        Task {
            await dispatcher.waitUntilDrained()
            continuation.yield()
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            continuation.yield()
        }
        for await _ in stream { break }
        timer.cancel()
    }

    /// Fails the test for the actions that reached the stores and were not received, exhaustively; lets them go.
    func failForUnreceivedActions(before next: String?, at site: CallSite) {
        let steps = log.takeSteps()
        guard let last = steps.last else { return }
        log.knownStates = last.states
        guard exhaustivity.receivesEveryAction else { return }
        let names = steps.map { "\($0.action)" }.joined(separator: ", ")
        let when = next.map { "before dispatching \($0)" } ?? "at the end of the test"
        TestFailure.record(
            "\(steps.count) action(s) reached the stores and were not received \(when): \(names)", at: site)
    }
}
