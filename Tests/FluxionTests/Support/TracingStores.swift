import Fluxion
import Foundation

extension ActionName where Payload == String {
    static var traceAdd: Self { "traceAdd" }
    /// Refused by ``TracedListStore``: the action rolls back.
    static var traceRefuse: Self { "traceRefuse" }
    /// Takes `TracingClock.slowStep` in ``TracedListStore``'s handler.
    static var traceSlowAdd: Self { "traceSlowAdd" }
    /// Asks for an effect that dispatches `.traceAdd` with the payload.
    static var traceFetch: Self { "traceFetch" }
}

/// A clock for traces that tests move: each reading is one microsecond after the last, and
/// ``advance(by:)`` moves it further, as slow work would.
final class TracingClock: Sendable {
    /// How long `.traceSlowAdd` takes.
    static let slowStep: UInt64 = 20_000_000
    private let nanoseconds = LockedBox<UInt64>(1_000_000)

    /// Reads the clock, which moves it a microsecond on.
    func read() -> UInt64 {
        nanoseconds.withValue { value in
            value += 1_000
            return value
        }
    }

    func advance(by duration: UInt64) {
        nanoseconds.withValue { $0 += duration }
    }
}

/// A list of strings; `.traceRefuse` throws, `.traceSlowAdd` moves its clock on.
final class TracedListStore: Store<[String]>, @unchecked Sendable {  // locked by Store; `clock` is immutable
    let clock: TracingClock

    init(clock: TracingClock) {
        self.clock = clock
        super.init(initialState: [])
    }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable()
            .on(.traceAdd) { state, action in state.append(action.payload) }
            .on(.traceRefuse) { _, action in throw TestError("refused \(action.payload)") }
            .route(.traceSlowAdd, to: TracedListStore.addSlowly)
            .on(.traceFetch, with: .effects) { state, action, effects in
                let item = action.payload
                effects.run(id: "fetch") { dispatcher in try dispatcher.dispatch(.traceAdd, payload: item) }
            }
    }

    func addSlowly(_ state: inout [String], _ action: Action<String>) {
        clock.advance(by: TracingClock.slowStep)
        state.append(action.payload)
    }
}

/// Counts ``TracedListStore``'s items: its handler waits for that store first.
final class TracedCountStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable()
            .route(.traceAdd, to: TracedCountStore.count)
            .route(.traceSlowAdd, to: TracedCountStore.count)
            .on(.traceRefuse) { _, _ in }
    }

    func count(_ state: inout Int, _ action: Action<String>) throws {
        state = try waitFor(TracedListStore.self).state.count
    }
}

/// Passes every action on.
struct PassingMiddleware: Middleware {
    func dispatch(_ action: AnyAction, next: MiddlewareNext) throws -> [AnyStoreChange] {
        try next(action)
    }
}

/// A dispatcher with ``TracedCountStore`` registered before ``TracedListStore``, which it waits for.
func makeTracedDispatcher(clock: TracingClock = TracingClock()) throws -> Dispatcher {
    let dispatcher = Dispatcher()
    try dispatcher.register(TracedCountStore.self)
    try dispatcher.register(TracedListStore.self) { TracedListStore(clock: clock) }
    return dispatcher
}
