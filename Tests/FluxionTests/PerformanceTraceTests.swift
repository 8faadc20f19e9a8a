import Dispatch
import Foundation
import Testing

@testable import Fluxion

/// A performance trace records each action's parts as nested spans, and nothing while off.
@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct PerformanceTraceTests {
    private func startTrace(
        on dispatcher: Dispatcher, clock: TracingClock = TracingClock(), capacity: Int = 1_000
    ) -> PerformanceTrace {
        dispatcher.startTracing(capacity: capacity, slowActionThreshold: nil, onSlowAction: nil, clock: clock.read)
    }

    @Test func eachHandlerRunIsOneSpanInsideItsAction() throws {
        let dispatcher = try makeTracedDispatcher()
        let trace = startTrace(on: dispatcher)

        try dispatcher.dispatch(.traceAdd, payload: "milk")
        try dispatcher.dispatch(.traceAdd, payload: "eggs")

        let spans = trace.spans
        let actions = spans.filter { $0.kind == .action }
        let handlers = spans.filter { $0.kind == .handler }
        #expect(actions.map(\.name) == ["traceAdd", "traceAdd"])
        #expect(handlers.count == 4)  // two stores, two actions: one span per handler run
        #expect(handlers.filter { $0.name == "TracedListStore" }.count == 2)
        #expect(handlers.filter { $0.name == "TracedCountStore" }.count == 2)
        #expect(spans.filter { $0.kind == .commit }.map(\.outcome) == ["committed", "committed"])
        for span in spans where span.kind != .action {
            #expect(actions.contains { span.isInside($0) }, "\(span) lies inside an action")
        }
        #expect(Set(spans.map(\.thread)) == [1])
        #expect(spans.allSatisfy { $0.action == "traceAdd" })
    }

    @Test func aHandlerThatWaitsForAnotherHoldsThatHandlersSpan() throws {
        let dispatcher = try makeTracedDispatcher()
        let trace = startTrace(on: dispatcher)

        try dispatcher.dispatch(.traceAdd, payload: "milk")

        let handlers = trace.spans.filter { $0.kind == .handler }
        let waiting = try #require(handlers.first { $0.name == "TracedCountStore" })
        let waited = try #require(handlers.first { $0.name == "TracedListStore" })
        #expect(waited.isInside(waiting))
        #expect(waited.start > waiting.start && waited.end < waiting.end)
        #expect(waited.outcome == "staged" && waiting.outcome == "staged")
    }

    @Test func eachObserverCallIsASpanInsideTheObserversSpan() throws {
        let dispatcher = try makeTracedDispatcher()
        let list = try dispatcher.store(TracedListStore.self)
        let owner = Recorder<Int>()
        list.observe(owner: owner) { owner, change in owner.append(change.newState.count) }
        let token = list.observe { _ in }
        let trace = startTrace(on: dispatcher)

        try dispatcher.dispatch(.traceAdd, payload: "milk")

        let spans = trace.spans
        let observers = try #require(spans.first { $0.kind == .observers })
        let calls = spans.filter { $0.kind == .observer }
        #expect(
            calls.map(\.name) == [
                "TracedListStore: observer owned by Recorder<Int>", "TracedListStore: token observer",
            ])
        #expect(calls.allSatisfy { $0.isInside(observers) })
        let commit = try #require(spans.first { $0.kind == .commit })
        #expect(commit.end <= observers.start)
        withExtendedLifetime(token) {}
    }

    @Test func eachMiddlewareIsASpanHoldingWhatItsNextRan() throws {
        let dispatcher = try makeTracedDispatcher()
        dispatcher.addMiddleware(PassingMiddleware())
        dispatcher.addMiddleware(LoggingMiddleware(write: { _ in }))
        let trace = startTrace(on: dispatcher)

        try dispatcher.dispatch(.traceAdd, payload: "milk")

        let spans = trace.spans
        let action = try #require(spans.first { $0.kind == .action })
        let middleware = spans.filter { $0.kind == .middleware }
        #expect(middleware.map(\.name).sorted() == ["LoggingMiddleware", "PassingMiddleware"])
        let outer = try #require(middleware.first { $0.name == "PassingMiddleware" })
        let inner = try #require(middleware.first { $0.name == "LoggingMiddleware" })
        #expect(outer.isInside(action) && inner.isInside(outer))
        #expect(spans.filter { $0.kind == .action }.count == 1)
        for span in spans where [.handler, .commit].contains(span.kind) {
            #expect(span.isInside(inner), "\(span) lies inside the innermost middleware")
        }
    }

    @Test func anActionThatRollsBackSaysSo() throws {
        let dispatcher = try makeTracedDispatcher()
        let trace = startTrace(on: dispatcher)

        #expect(throws: TestError("refused milk")) { try dispatcher.dispatch(.traceRefuse, payload: "milk") }

        let spans = trace.spans
        #expect(spans.first { $0.kind == .action }?.outcome == "threw")
        #expect(spans.first { $0.name == "TracedListStore" }?.outcome == "threw")
        #expect(spans.first { $0.kind == .commit }?.outcome == "rolled back")
        #expect(!spans.contains { $0.kind == .observers })
    }

    @Test func aBatchIsOneSpanHoldingItsActionsItsCommitAndItsObservers() throws {
        let dispatcher = try makeTracedDispatcher()
        let token = try dispatcher.store(TracedListStore.self).observe { _ in }
        let trace = startTrace(on: dispatcher)

        try dispatcher.batch { batch in
            try batch.dispatch(.traceAdd, payload: "milk")
            try batch.dispatch(.traceAdd, payload: "eggs")
        }

        let spans = trace.spans
        let batch = try #require(spans.first { $0.kind == .batch })
        #expect(batch.name == AnyAction.batchName)
        #expect(spans.filter { $0.kind == .action }.count == 2)
        #expect(spans.filter { $0.kind == .handler }.count == 4)
        #expect(spans.filter { $0.kind == .commit }.count == 1)
        #expect(spans.filter { $0.kind == .observer }.count == 1)  // one change for the whole batch
        #expect(spans.allSatisfy { $0 == batch || $0.isInside(batch) })
        withExtendedLifetime(token) {}
    }

    @Test func anEffectIsASpanFromItsStartToItsEnd() async throws {
        let dispatcher = try makeTracedDispatcher()
        let trace = startTrace(on: dispatcher)

        try dispatcher.dispatch(.traceFetch, payload: "milk")
        await dispatcher.waitUntilDrained()

        let spans = trace.spans
        let effect = try #require(spans.first { $0.kind == .effect })
        #expect(effect.name == "fetch" && effect.action == "traceFetch" && effect.outcome == "finished")
        #expect(effect.thread == nil)
        let fetch = try #require(spans.first { $0.kind == .action && $0.name == "traceFetch" })
        let added = try #require(spans.first { $0.kind == .action && $0.name == "traceAdd" })
        #expect(effect.start >= fetch.end)  // it starts once its action committed...
        #expect(added.start >= effect.start && added.end <= effect.end)  // ...and runs what it dispatches
    }

    @Test func anEffectStillRunningIsASpanUpToNow() async throws {
        let dispatcher = try makeTracedDispatcher()
        let release = OneShotSignal()  // NB: awaited, not a semaphore: a task blocked on one holds a pool thread
        let trace = startTrace(on: dispatcher)

        dispatcher.dispatchTask(id: "untraced") { _ in }  // not an effect of a step: no span
        try dispatcher.batch { _ in
            dispatcher.dispatchTask(id: "held") { _ in await release.wait() }
        }

        let running = trace.spans.filter { $0.kind == .effect }
        #expect(running.map(\.name) == ["held"])
        #expect(running.map(\.outcome) == ["running"])
        release.fire()
        await dispatcher.waitUntilDrained()
        #expect(trace.spans.filter { $0.kind == .effect }.map(\.outcome) == ["finished"])
    }

    @Test func withNoTraceNothingIsRecordedAndTheDispatcherHoldsNone() throws {
        let dispatcher = try makeTracedDispatcher()
        try dispatcher.dispatch(.traceAdd, payload: "before")
        #expect(dispatcher.transaction.tracer == nil)

        let trace = startTrace(on: dispatcher)
        #expect(trace.spans.isEmpty)  // what ran before the trace started is not in it
        #expect(dispatcher.transaction.tracer === trace.recorder)
    }

    @Test func stopStopsRecordingAndTheDispatcherLetsTheTraceGo() async throws {
        let dispatcher = try makeTracedDispatcher()
        let trace = startTrace(on: dispatcher)
        try dispatcher.dispatch(.traceAdd, payload: "milk")
        let recorded = trace.spans

        trace.stop()
        try dispatcher.dispatch(.traceAdd, payload: "eggs")
        try dispatcher.dispatch(.traceFetch, payload: "bread")
        await dispatcher.waitUntilDrained()

        #expect(!trace.isRecording)
        #expect(trace.spans == recorded)
        #expect(dispatcher.transaction.tracer == nil)
        #expect(dispatcher.state.withLock { $0.taskEventObservers.isEmpty })
        trace.stop()  // a second stop does nothing
    }

    @Test func releasingATraceStopsIt() throws {
        let dispatcher = try makeTracedDispatcher()
        weak var recorder: TraceRecorder?
        do {
            let trace = startTrace(on: dispatcher)
            recorder = trace.recorder
        }
        #expect(recorder?.isStopped == true)
        try dispatcher.dispatch(.traceAdd, payload: "milk")
        #expect(recorder == nil)  // the next action let it go
    }

    @Test func aNewTraceStopsTheOneBefore() throws {
        let dispatcher = try makeTracedDispatcher()
        let first = startTrace(on: dispatcher)
        let second = startTrace(on: dispatcher)

        try dispatcher.dispatch(.traceAdd, payload: "milk")

        #expect(!first.isRecording && second.isRecording)
        #expect(first.spans.isEmpty)
        #expect(second.spans.filter { $0.kind == .handler }.count == 2)
        #expect(dispatcher.state.withLock { $0.taskEventObservers.count } == 1)
    }

    @Test func aTraceKeepsItsNewestSpans() throws {
        let dispatcher = try makeTracedDispatcher()
        let trace = startTrace(on: dispatcher, capacity: 3)

        try dispatcher.dispatch(.traceAdd, payload: "milk")

        // NB: an action's spans end in this order: its handlers (the waited one first), its commit, itself.
        #expect(trace.spans.map(\.kind) == [.handler, .commit, .action])
        #expect(trace.spans.first?.name == "TracedCountStore")
        #expect(trace.droppedSpanCount == 1)
    }

    @Test func startedInsideAHandlerTheTraceRecordsFromThere() throws {
        let dispatcher = Dispatcher()
        let traces = LockedBox<[PerformanceTrace]>([])
        try dispatcher.register(TracedListStore.self) { TracedListStore(clock: TracingClock()) }
        let token = try dispatcher.store(TracedListStore.self).observe { [dispatcher] _ in
            if traces.value.isEmpty { traces.value = [dispatcher.startTracing()] }
        }

        try dispatcher.dispatch(.traceAdd, payload: "milk")
        try dispatcher.dispatch(.traceAdd, payload: "eggs")

        let spans = try #require(traces.value.first).spans
        #expect(spans.filter { $0.kind == .action }.count == 1)  // the second action only
        #expect(spans.filter { $0.kind == .observer }.count == 1)
        withExtendedLifetime(token) {}
    }

    @Test func twoThreadsDispatchingWhileTracedEachGetTheirOwnNestedSpans() throws {
        let dispatcher = try makeTracedDispatcher()
        let token = try dispatcher.store(TracedListStore.self).observe { _ in }
        let trace = dispatcher.startTracing()
        let perThread = 2_000

        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for index in 0..<perThread { try? dispatcher.dispatch(.traceAdd, payload: "\(thread)-\(index)") }
        }

        let spans = trace.spans
        #expect(spans.filter { $0.kind == .action }.count == 2 * perThread)
        #expect(spans.filter { $0.kind == .handler }.count == 4 * perThread)
        #expect(spans.filter { $0.kind == .observer }.count == 2 * perThread)
        for thread in Set(spans.map(\.thread)) {
            let mine = spans.filter { $0.thread == thread }
            #expect(isWellNested(mine), "thread \(String(describing: thread))")
        }
        withExtendedLifetime(token) {}
    }
}

/// Whether every two spans either do not overlap or one holds the other.
func isWellNested(_ spans: [PerformanceTrace.Span]) -> Bool {
    var open: [PerformanceTrace.Span] = []
    for span in spans.sorted(by: { ($0.start, $1.end) < ($1.start, $0.end) }) {
        // NB: the spans that ended before this one began are done with.
        while let last = open.last, !(span.start >= last.start && span.end <= last.end), last.end <= span.start {
            open.removeLast()
        }
        if let last = open.last, !(span.start >= last.start && span.end <= last.end) { return false }
        open.append(span)
    }
    return true
}
