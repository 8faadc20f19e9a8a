import Foundation
import Testing

@testable import Fluxion

/// A trace exports as Trace Event Format JSON: one complete event per span, nested per track.
@Suite(.timeLimit(.minutes(10))) struct PerformanceTraceEventFormatTests {
    /// The trace's JSON, parsed: its complete events, and its track names by `tid`.
    private func parse(_ trace: PerformanceTrace) throws -> (events: [[String: Any]], tracks: [Int: String]) {
        let object = try JSONSerialization.jsonObject(with: trace.traceEventJSON())
        let root = try #require(object as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        var tracks: [Int: String] = [:]
        for event in events where event["ph"] as? String == "M" && event["name"] as? String == "thread_name" {
            tracks[try #require(event["tid"] as? Int)] = (event["args"] as? [String: Any])?["name"] as? String
        }
        return (events.filter { $0["ph"] as? String == "X" }, tracks)
    }

    @Test func eachSpanIsOneCompleteEventWithItsFields() async throws {
        let dispatcher = try makeTracedDispatcher()
        let token = try dispatcher.store(TracedListStore.self).observe { _ in }
        let clock = TracingClock()
        let trace = dispatcher.startTracing(
            capacity: 100, slowActionThreshold: nil, onSlowAction: nil, clock: clock.read)

        try dispatcher.dispatch(.traceAdd, payload: "milk")
        try dispatcher.dispatch(.traceFetch, payload: "eggs")
        await dispatcher.waitUntilDrained()

        let (events, tracks) = try parse(trace)
        let spans = trace.spans
        #expect(events.count == spans.count)
        for event in events {
            #expect(event["name"] is String && event["cat"] is String)
            #expect(event["ts"] is Double && event["dur"] is Double)
            #expect(event["pid"] is Int && event["tid"] is Int)
            #expect((event["args"] as? [String: Any])?["action"] is String)
        }
        let handlers = events.filter { $0["cat"] as? String == "handler" }
        #expect(handlers.count == spans.filter { $0.kind == .handler }.count)
        #expect(handlers.count == 5)  // `traceFetch`'s one store; `traceAdd` (again from the effect), two
        for span in spans {
            // NB: microseconds since the trace started, to the nanosecond.
            let (start, duration) = (microseconds(span.start), microseconds(span.duration))
            let matches = events.filter { event in
                event["name"] as? String == span.name && event["cat"] as? String == span.kind.rawValue
                    && abs((event["ts"] as? Double ?? -1) - start) < 0.0005
                    && abs((event["dur"] as? Double ?? -1) - duration) < 0.0005
                    && (event["args"] as? [String: Any])?["outcome"] as? String == span.outcome
            }
            #expect(matches.count == 1, "\(span)")
        }
        #expect(tracks[1] == "thread 1")
        let effect = try #require(events.first { $0["cat"] as? String == "effect" })
        #expect(tracks[effect["tid"] as? Int ?? 0] == "effects")
        withExtendedLifetime(token) {}
    }

    private func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    @Test func theEventsOfEachTrackAreWellNested() async throws {
        let dispatcher = try makeTracedDispatcher()
        dispatcher.addMiddleware(PassingMiddleware())
        let trace = dispatcher.startTracing()

        for index in 0..<20 { try dispatcher.dispatch(.traceFetch, payload: "item \(index)") }
        await dispatcher.waitUntilDrained()

        let (events, _) = try parse(trace)
        #expect(events.filter { $0["cat"] as? String == "effect" }.count == 20)
        let byTrack = Dictionary(grouping: events) { $0["tid"] as? Int ?? 0 }
        for (track, events) in byTrack {
            // NB: rounded to the nanosecond, as the file writes them.
            let spans = events.map { event -> PerformanceTrace.Span in
                let start = Int64(((event["ts"] as? Double ?? 0) * 1_000).rounded())
                let duration = Int64(((event["dur"] as? Double ?? 0) * 1_000).rounded())
                return PerformanceTrace.Span(
                    kind: .action, name: "", action: "", outcome: nil, thread: track,
                    start: .nanoseconds(start), duration: .nanoseconds(duration))
            }
            #expect(isWellNested(spans), "track \(track)")
        }
    }

    @Test func namesAreEscaped() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(OddlyNamedStore.self)
        let trace = dispatcher.startTracing()

        try dispatcher.dispatch(.oddlyNamed, payload: 1)

        let (events, _) = try parse(trace)
        #expect(events.count == 3)  // the action, its handler, its commit
        #expect(
            events.allSatisfy { ($0["args"] as? [String: Any])?["action"] as? String == ActionName.oddlyNamed.rawValue }
        )
        #expect(events.first?["name"] as? String == ActionName.oddlyNamed.rawValue)
    }

    @Test func writeCreatesAFileOrReplacesAnEarlierTraceOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dispatcher = try makeTracedDispatcher()
        let trace = dispatcher.startTracing()
        try dispatcher.dispatch(.traceAdd, payload: "milk")
        let url = directory.appendingPathComponent("trace.json")

        try trace.write(to: url)
        try dispatcher.dispatch(.traceAdd, payload: "eggs")
        try trace.write(to: url)  // replaces the earlier trace

        #expect(try Data(contentsOf: url) == trace.traceEventJSON())
        let other = directory.appendingPathComponent("notes.json")
        try Data("{\"notes\": []}".utf8).write(to: other)
        #expect(throws: TraceError.notReplaceable(path: other.path, reason: "it is not a performance trace")) {
            try trace.write(to: other)
        }
        #expect(try String(contentsOf: other, encoding: .utf8) == "{\"notes\": []}")
        #expect(throws: TraceError.notReplaceable(path: directory.path, reason: "it is not a file")) {
            try trace.write(to: directory)
        }
        let missing = directory.appendingPathComponent("missing/trace.json")
        #expect {
            try trace.write(to: missing)
        } throws: { error in
            guard case TraceError.unwritableFile(let path, _) = error else { return false }
            return path == missing.path && "\(error)".contains(missing.path)
        }
    }
}

extension ActionName where Payload == Int {
    /// A name with every kind of character JSON must escape.
    fileprivate static var oddlyNamed: Self { "say \"hi\"\\\n\t\u{1}\u{7F} ünï 🎉" }
}

/// Handles `.oddlyNamed`.
private final class OddlyNamedStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.oddlyNamed) { state, action in state += action.payload }
    }
}
