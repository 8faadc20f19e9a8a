import Dispatch

#if canImport(os)
import os
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// Where a dispatcher reports the spans of a ``PerformanceTrace`` while it records: the hooks begin a
/// span, run what it measures, and end it; the recorder keeps what ended.
///
/// The dispatcher holds one only while a trace records, in a field the turn holder reads: with no
/// trace, each hook is one test of `nil`.
@usableFromInline
final class TraceRecorder: @unchecked Sendable {  // `state` guards itself; `stopped` is atomic; the rest is immutable
    /// A span that began: what it is, and the clock when it began.
    @usableFromInline
    struct Mark {
        let kind: PerformanceTrace.Span.Kind
        let subject: TraceSubject
        let start: UInt64
        #if canImport(os)
        let signpost: OSSignpostID
        #endif
    }

    struct State {
        var records: TraceRing
        /// The effects that started and have not ended, by their tag.
        var effects: [ObjectIdentifier: (tag: EffectTag, mark: Mark)] = [:]
        /// The types of the middleware of one version of the chain.
        var middleware: (version: UInt64, types: [any Any.Type])?
        /// The key of the recorder's observer of effects, until it stops.
        var effectObserver: Int?
        /// The number of each thread that ran a span, from 1; and the last one, asked again most often.
        var threadNumbers: [UInt: Int] = [:]
        var lastThread: (raw: UInt, number: Int) = (0, 0)

        /// Keeps the span `mark` began, which ended at `end` on the thread `raw` (0 for an effect).
        ///
        /// - Returns: Its thread's number.
        mutating func keep(_ mark: Mark, end: UInt64, of raw: UInt, action: String, outcome: String?) -> Int {
            let thread = raw == 0 ? 0 : number(of: raw)
            records.append(
                TraceRecord(
                    kind: mark.kind, subject: mark.subject, action: action, outcome: outcome, thread: thread,
                    start: mark.start, end: end))
            return thread
        }

        private mutating func number(of raw: UInt) -> Int {
            if lastThread.raw == raw { return lastThread.number }
            let number = threadNumbers[raw] ?? threadNumbers.count + 1
            threadNumbers[raw] = number
            lastThread = (raw, number)
            return number
        }
    }

    /// The clock when the trace started: spans are placed from it.
    let origin: UInt64
    /// The duration in nanoseconds past which an action is reported, if any.
    let slowThreshold: UInt64?
    let onSlowAction: @Sendable (SlowActionReport) -> Void
    /// A clock the tests move by hand; `nil` reads the monotonic clock.
    private let manualClock: (@Sendable () -> UInt64)?
    private let state: Guarded<State>
    /// Set, under `state`'s lock, when the trace stops; read without it.
    private let stopped = AtomicFlag()
    #if canImport(os)
    private let log = OSLog(subsystem: "Fluxion", category: "PerformanceTrace")
    #endif

    init(
        capacity: Int,
        slowThreshold: UInt64?,
        onSlowAction: @escaping @Sendable (SlowActionReport) -> Void,
        clock: (@Sendable () -> UInt64)? = nil
    ) {
        manualClock = clock
        origin = clock?() ?? Self.monotonicNow()
        self.slowThreshold = slowThreshold
        self.onSlowAction = onSlowAction
        state = Guarded(State(records: TraceRing(capacity: capacity)))
    }

    /// The clock, in nanoseconds: monotonic.
    func now() -> UInt64 {
        manualClock?() ?? Self.monotonicNow()
    }

    /// The monotonic clock, in nanoseconds.
    private static func monotonicNow() -> UInt64 {
        #if canImport(Darwin)
        return DispatchTime.now().uptimeNanoseconds
        #else
        // NB: `DispatchTime` reads this clock too, at twice the cost.
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
        #endif
    }

    var isStopped: Bool { stopped.isSet }

    /// Records the key of the recorder's observer of effects, for ``stop()`` to hand back.
    func observeEffects(as key: Int) {
        state.withLock { $0.effectObserver = key }
    }

    /// Stops recording.
    ///
    /// - Returns: The key of the recorder's observer of effects, to stop it, the first time.
    func stop() -> Int? {
        state.withLock { state in
            stopped.set(true)
            return state.effectObserver.take()
        }
    }

    // MARK: Spans

    /// Begins a span of `kind`, now.
    @usableFromInline
    func begin(_ kind: PerformanceTrace.Span.Kind, _ subject: TraceSubject) -> Mark {
        #if canImport(os)
        var names = TraceSubject.Names()
        let signpost = OSSignpostID(log: log)
        let name = names.name(of: subject)
        os_signpost(.begin, log: log, name: kind.signpostName, signpostID: signpost, "%{public}s", name)
        return Mark(kind: kind, subject: subject, start: now(), signpost: signpost)
        #else
        return Mark(kind: kind, subject: subject, start: now())
        #endif
    }

    /// Begins the span of a call of `observer`, of `store`.
    @usableFromInline
    func begin(_ observer: AnyObserver, of store: AnyObject) -> Mark {
        begin(.observer, .observer(store: type(of: store), observer: type(of: observer)))
    }

    /// Ends the span `mark` began, on this thread, and keeps it.
    @usableFromInline
    func end(_ mark: Mark, action: String, outcome: String? = nil) {
        _ = keep(mark, action: action, outcome: outcome)
    }

    /// Ends the span `mark` began, on this thread, and keeps it.
    ///
    /// - Returns: Its thread's number, and when it ended; `nil` once the trace stopped.
    private func keep(_ mark: Mark, action: String, outcome: String?) -> (thread: Int, end: UInt64)? {
        let end = max(now(), mark.start)
        #if canImport(os)
        os_signpost(.end, log: log, name: mark.kind.signpostName, signpostID: mark.signpost)
        #endif
        guard !stopped.isSet else { return nil }
        let raw = ThreadID.current.raw
        let thread = state.withLock { $0.keep(mark, end: end, of: raw, action: action, outcome: outcome) }
        return (thread, end)
    }

    /// Ends the span of an action or a batch that ran on its own (not inside a batch), and reports it
    /// if it took longer than the threshold.
    func endStep(_ mark: Mark, action: String, outcome: String? = nil) {
        guard let (thread, end) = keep(mark, action: action, outcome: outcome), let slowThreshold,
            end - mark.start > slowThreshold
        else { return }
        let record = (thread: thread, start: mark.start, end: end)
        var parts: [TraceRecord] = []
        state.withLock { state in
            // NB: a thread's spans end in order: those that ended before the step began are older.
            state.records.forEachFromNewest { part in
                guard part.thread == record.thread else { return true }
                guard part.end >= record.start else { return false }
                if part.start >= record.start, part.end <= record.end { parts.append(part) }
                return true
            }
        }
        guard let step = parts.first else { return }
        let report = SlowActionReport(
            step, parts: parts.dropFirst().reversed(), threshold: slowThreshold, origin: origin)
        onSlowAction(report)  // NB: user code, outside the lock
    }

    /// Runs `call`, a handler's run on `store`, as a span.
    func traceHandler(of store: AnyObject, action: String, _ call: () -> HandlerOutcome) -> HandlerOutcome {
        let mark = begin(.handler, .type(type(of: store)))
        let outcome = call()
        end(mark, action: action, outcome: outcome.traceName)
        return outcome
    }

    /// What names the middleware at `position` of the chain of `version`; `chain` reads the chain as it is.
    func middleware(at position: Int, version: UInt64, chain: () -> MiddlewareChain) -> TraceSubject {
        if let known = state.withLock({ $0.middleware }), known.version == version,
            known.types.indices.contains(position)
        {
            return .type(known.types[position])
        }
        let current = chain()
        // NB: the chain changed since the action was dispatched: its middleware are named by place.
        guard current.version == version, current.entries.indices.contains(position) else {
            return .named("middleware \(position + 1)")
        }
        let types = current.entries.map { type(of: $0.middleware) as any Any.Type }
        state.withLock { $0.middleware = (version, types) }
        return .type(types[position])
    }

    // MARK: Effects

    /// Begins or ends the span of an effect.
    func note(_ event: TaskEvent) {
        switch event {
        case .started(let tag, _):
            let mark = begin(.effect, .named(tag.name))
            state.withLock { $0.effects[ObjectIdentifier(tag)] = (tag, mark) }
        case .ended(let tag, let outcome, _):
            let end = now()
            guard let (_, mark) = state.withLock({ $0.effects.removeValue(forKey: ObjectIdentifier(tag)) }) else {
                return
            }
            #if canImport(os)
            os_signpost(.end, log: log, name: mark.kind.signpostName, signpostID: mark.signpost)
            #endif
            guard !stopped.isSet else { return }
            _ = state.withLock {
                $0.keep(mark, end: max(end, mark.start), of: 0, action: tag.action, outcome: outcome.traceName)
            }
        case .skipped:
            break
        }
    }

    // MARK: Reading

    /// Every span kept, oldest first, with the effects still running as spans up to now; and how
    /// many older spans were dropped.
    func records() -> (records: [TraceRecord], dropped: Int) {
        let now = now()
        return state.withLock { state in
            let running = state.effects.values.map { tag, mark in
                TraceRecord(
                    kind: .effect, subject: mark.subject, action: tag.action, outcome: "running", thread: 0,
                    start: mark.start, end: max(now, mark.start))
            }
            return (state.records.all + running.sorted { $0.start < $1.start }, state.records.dropped)
        }
    }
}

extension EffectOutcome {
    /// How an effect's span names its end.
    var traceName: String {
        switch self {
        case .finished: "finished"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }
}

#if canImport(os)
extension PerformanceTrace.Span.Kind {
    /// The name of its `os_signpost` intervals.
    var signpostName: StaticString {
        switch self {
        case .action: "action"
        case .batch: "batch"
        case .middleware: "middleware"
        case .handler: "handler"
        case .commit: "commit"
        case .observers: "observers"
        case .observer: "observer"
        case .effect: "effect"
        }
    }
}
#endif
