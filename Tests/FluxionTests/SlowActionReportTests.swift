import Foundation
import Testing

@testable import Fluxion

/// An action over a trace's threshold is reported with where its time went; others are not.
@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct SlowActionReportTests {
    /// A dispatcher traced with a threshold of 10 ms on a clock the slow handler moves 20 ms on.
    private func makeTraced(
        middleware: Bool = false
    ) throws -> (Dispatcher, PerformanceTrace, Recorder<SlowActionReport>) {
        let clock = TracingClock()
        let dispatcher = try makeTracedDispatcher(clock: clock)
        if middleware { dispatcher.addMiddleware(PassingMiddleware()) }
        let reports = Recorder<SlowActionReport>()
        let trace = dispatcher.startTracing(
            capacity: 1_000, slowActionThreshold: .milliseconds(10), onSlowAction: reports.append, clock: clock.read)
        return (dispatcher, trace, reports)
    }

    @Test func aSlowActionIsReportedWithEachPartNestedAsItRan() throws {
        let (dispatcher, trace, reports) = try makeTraced(middleware: true)
        let token = try dispatcher.store(TracedListStore.self).observe { _ in }

        try dispatcher.dispatch(.traceSlowAdd, payload: "milk")

        let report = try #require(reports.values.first)
        #expect(reports.count == 1)
        #expect(report.action.kind == .action && report.action.name == "traceSlowAdd")
        #expect(report.action.duration > .milliseconds(20))
        #expect(report.threshold == .milliseconds(10))
        #expect(report.parts.map(\.span.kind) == [.middleware, .handler, .handler, .commit, .observers, .observer])
        #expect(report.parts.map(\.depth) == [0, 1, 2, 1, 1, 2])
        #expect(
            report.parts.map(\.span.name) == [
                "PassingMiddleware", "TracedCountStore", "TracedListStore", "commit", "observers",
                "TracedListStore: token observer",
            ])
        #expect(report.parts.map(\.span) == trace.spans.filter { $0.kind != .action }.sorted { $0.start < $1.start })
        let lines = report.description.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Slow action: traceSlowAdd took 20.0") == true)
        #expect(lines.first?.hasSuffix(" ms (threshold 10.000 ms)") == true)
        #expect(lines.dropFirst().map { $0.prefix { $0 == " " }.count } == [2, 4, 6, 4, 4, 6])
        #expect(lines[3].contains("handler TracedListStore") && lines[3].contains("20.0"))
        #expect(lines[3].hasSuffix(" ms  staged"))
        #expect(lines[4].hasSuffix(" ms  committed"))
        withExtendedLifetime(token) {}
    }

    @Test func anActionUnderTheThresholdIsNotReported() throws {
        let (dispatcher, trace, reports) = try makeTraced()

        try dispatcher.dispatch(.traceAdd, payload: "milk")

        #expect(reports.values.isEmpty)
        #expect(trace.spans.count == 4)
    }

    @Test func aSlowBatchIsReportedOnceWithItsActions() throws {
        let (dispatcher, trace, reports) = try makeTraced()

        try dispatcher.batch { batch in
            try batch.dispatch(.traceAdd, payload: "milk")
            try batch.dispatch(.traceSlowAdd, payload: "eggs")
        }

        let report = try #require(reports.values.first)
        #expect(reports.count == 1)
        #expect(report.action.kind == .batch)
        #expect(report.description.hasPrefix("Slow batch: \(AnyAction.batchName) took 20.0"))
        #expect(report.parts.filter { $0.depth == 0 }.map(\.span.kind) == [.action, .action, .commit, .observers])
        withExtendedLifetime(trace) {}
    }

    @Test func withoutAHookTheReportGoesToStandardError() throws {
        let clock = TracingClock()
        let dispatcher = try makeTracedDispatcher(clock: clock)
        let trace = dispatcher.startTracing(
            capacity: 100, slowActionThreshold: .milliseconds(10), onSlowAction: nil, clock: clock.read)

        let written = try captureStandardError { try dispatcher.dispatch(.traceSlowAdd, payload: "milk") }

        // NB: other tests may write to standard error meanwhile.
        #expect(written.contains("Fluxion: Slow action: traceSlowAdd took 20.0"))
        #expect(written.contains("\n    handler TracedListStore  20.001 ms  staged\n"))
        #expect(written.contains("\n  commit                      0.001 ms  committed\n"))
        withExtendedLifetime(trace) {}
    }

    @Test func theThresholdOfTheActionsPublicEntryIsTheMonotonicClocks() throws {
        let dispatcher = try makeTracedDispatcher()
        let reports = Recorder<SlowActionReport>()
        let trace = dispatcher.startTracing(slowActionThreshold: .zero, onSlowAction: reports.append)

        try dispatcher.dispatch(.traceAdd, payload: "milk")
        try dispatcher.dispatch(.traceAdd, payload: "eggs")

        #expect(reports.count == 2)  // every action takes longer than nothing
        #expect(trace.slowActionThreshold == .zero)
        #expect(reports.values.allSatisfy { $0.parts.count == 3 })
    }
}
