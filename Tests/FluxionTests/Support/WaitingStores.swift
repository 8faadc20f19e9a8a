import Fluxion

// Stores that order themselves with `waitFor`, shared by the waitFor and observer tests.

extension ActionName where Payload == Int {
    /// Handled by ``SourceStore`` and by the waiters, which read its new value.
    static var setSource: Self { "setSource" }
}

struct SourceValue: Sendable, Equatable {
    var value = 0
    var calls = 0
}

struct WaiterValue: Sendable, Equatable {
    /// The source's value the waiter read after `waitFor`; `nil` before any action.
    var seen: Int?
}

/// The store the waiters wait for; `log` hears "source" each time its handler runs.
final class SourceStore: Store<SourceValue>, @unchecked Sendable {  // locked by Store
    let log: Recorder<String>

    init(log: Recorder<String>) {
        self.log = log
        super.init(initialState: SourceValue())
    }

    override class var handlers: HandlerTable<SourceValue> {
        HandlerTable().route(.setSource, to: SourceStore.set)
    }

    func set(_ state: inout SourceValue, _ action: Action<Int>) throws {
        log.append("source")
        if action.payload < 0 { throw TestError("negative source") }
        state.value = action.payload
        state.calls += 1
    }
}

/// Registered before ``SourceStore`` in the tests: its `waitFor` runs the source early.
final class EarlyWaiterStore: Store<WaiterValue>, @unchecked Sendable {  // locked by Store
    let log: Recorder<String>

    init(log: Recorder<String>) {
        self.log = log
        super.init(initialState: WaiterValue())
    }

    override class var handlers: HandlerTable<WaiterValue> {
        HandlerTable().route(.setSource, to: EarlyWaiterStore.read)
    }

    func read(_ state: inout WaiterValue, _ action: Action<Int>) throws {
        let source = try waitFor(SourceStore.self)
        log.append("early")
        state.seen = source.state.value
    }
}

/// Registered after ``SourceStore`` in the tests: its `waitFor` finds the source done.
final class LateWaiterStore: Store<WaiterValue>, @unchecked Sendable {  // locked by Store
    let log: Recorder<String>

    init(log: Recorder<String>) {
        self.log = log
        super.init(initialState: WaiterValue())
    }

    override class var handlers: HandlerTable<WaiterValue> {
        HandlerTable().route(.setSource, to: LateWaiterStore.read)
    }

    func read(_ state: inout WaiterValue, _ action: Action<Int>) throws {
        let source = try waitFor(SourceStore.self)
        log.append("late")
        state.seen = source.state.value
    }
}
