import Foundation

/// An action (or a batch) that took longer than a trace's threshold, with where its time went.
///
/// Its ``description`` reads:
///
/// ```
/// Slow action: addTodo took 21.408 ms (threshold 16.000 ms)
///   middleware LoggingMiddleware                      21.390 ms
///     handler StatsStore                              12.310 ms  staged
///       handler TodoStore                              3.002 ms  staged
///     commit                                           0.011 ms  committed
///     observers                                        8.912 ms
///       observer TodoStore: observer owned by ListView  8.870 ms
/// ```
///
/// Each part is indented under the part that holds it: a handler under the
/// middleware whose `next` ran it, a handler that ran through
/// ``Store/waitFor(_:)`` under the handler that waited.
public struct SlowActionReport: Sendable, CustomStringConvertible {
    /// One part of the action, with how deep it is nested.
    public struct Part: Sendable, Hashable {
        /// The part's span.
        public let span: PerformanceTrace.Span
        /// How many other parts hold it: 0 for a part directly under the action.
        public let depth: Int
    }

    /// The action's span (a batch's, for a batch).
    public let action: PerformanceTrace.Span
    /// The action's parts, in the order they began, each after the part that holds it.
    public let parts: [Part]
    /// The threshold it went past.
    public let threshold: Duration

    init(_ step: TraceRecord, parts records: [TraceRecord], threshold: UInt64, origin: UInt64) {
        var names = TraceSubject.Names()
        action = PerformanceTrace.Span(step, origin: origin, names: &names)
        self.threshold = .nanoseconds(Int64(clamping: threshold))
        var parts: [Part] = []
        var open: [TraceRecord] = []
        for record in records.sorted(by: { ($0.start, $1.end) < ($1.start, $0.end) }) {
            while let last = open.last, !(record.start >= last.start && record.end <= last.end) {
                open.removeLast()
            }
            parts.append(Part(span: PerformanceTrace.Span(record, origin: origin, names: &names), depth: open.count))
            open.append(record)
        }
        self.parts = parts
    }

    /// The report in one line: the action, how long it took, and the slowest handlers.
    public var description: String {
        let kind = action.kind == .batch ? "batch" : "action"
        var lines = [
            "Slow \(kind): \(action.name) took \(milliseconds(action.duration)) (threshold \(milliseconds(threshold)))"
        ]
        let labels = parts.map { String(repeating: "  ", count: $0.depth + 1) + label(of: $0.span) }
        let durations = parts.map { milliseconds($0.span.duration) }
        let width = labels.map(\.count).max() ?? 0
        let durationWidth = durations.map(\.count).max() ?? 0
        for (part, (label, duration)) in zip(parts, zip(labels, durations)) {
            var line = label.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
            line += String(repeating: " ", count: durationWidth - duration.count) + duration
            if let outcome = part.span.outcome { line += "  " + outcome }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    private func label(of span: PerformanceTrace.Span) -> String {
        switch span.kind {
        case .commit, .observers: span.kind.rawValue
        default: "\(span.kind.rawValue) \(span.name)"
        }
    }
}

/// A duration in milliseconds, with three decimals.
func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    let sign = microseconds < 0 ? "-" : ""
    let magnitude = microseconds.magnitude
    let fraction = String(magnitude % 1_000)
    return "\(sign)\(magnitude / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
}
