import Foundation

// The Trace Event Format (the JSON that Perfetto and chrome://tracing open): one complete event
// ("ph": "X") per span, times in microseconds, a track per thread, and tracks for the effects.
extension PerformanceTrace {
    /// The mark of a file this trace wrote, which ``write(to:)`` may replace.
    static let generatorMark = #""generator":"Fluxion performance trace""#

    /// The spans kept, as Trace Event Format JSON: to open in Perfetto or `chrome://tracing`.
    ///
    /// Each span is one complete event (`"ph": "X"`) with its `name`, its kind as `cat`, `ts`
    /// and `dur` in microseconds since the trace started, and `args` naming its action and, where
    /// there is one, its outcome. Each thread is a track (`tid` 1, 2, … as ``Span/thread``
    /// numbers them), on which spans nest as their calls did. Effects, which run on the tasks'
    /// threads, go on tracks of their own named `effects`, as many as ran at once.
    public func traceEventJSON() -> Data {
        let records = recorder.records()
        let pid = ProcessInfo.processInfo.processIdentifier
        let origin = recorder.origin
        let threads = Set(records.records.map(\.thread)).subtracting([0]).sorted()
        let lanes = effectLanes(of: records.records, after: threads.last ?? 0)
        var events = [
            #"{"name":"process_name","ph":"M","pid":\#(pid),"tid":0,"args":{"name":"Fluxion"}}"#
        ]
        events += threads.map { thread in
            #"{"name":"thread_name","ph":"M","pid":\#(pid),"tid":\#(thread),"args":{"name":"thread \#(thread)"}}"#
        }
        events += Set(lanes.values).sorted().enumerated().map { index, lane in
            let name = index == 0 ? "effects" : "effects \(index + 1)"
            return #"{"name":"thread_name","ph":"M","pid":\#(pid),"tid":\#(lane),"args":{"name":"\#(name)"}}"#
        }
        let ordered = records.records.indices.sorted { first, second in
            let (a, b) = (records.records[first], records.records[second])
            // NB: a span before the spans it holds, which begin with it or later and end no later.
            return (a.start, b.end, first) < (b.start, a.end, second)
        }
        var names = TraceSubject.Names()
        for index in ordered {
            let record = records.records[index]
            var arguments = #""action":\#(jsonString(record.action))"#
            if let outcome = record.outcome { arguments += #","outcome":\#(jsonString(outcome))"# }
            let start = record.start > origin ? record.start - origin : 0
            events.append(
                #"{"name":\#(jsonString(names.name(of: record.subject))),"cat":"\#(record.kind.rawValue)","ph":"X","#
                    + #""ts":\#(microseconds(start)),"dur":\#(microseconds(record.end - record.start)),"#
                    + #""pid":\#(pid),"tid":\#(lanes[index] ?? record.thread),"args":{\#(arguments)}}"#)
        }
        let header = #"{"otherData":{\#(Self.generatorMark),"droppedSpans":\#(records.dropped)},"#
        let text =
            header + "\n" + #""displayTimeUnit":"ms","traceEvents":["# + "\n"
            + events.joined(separator: ",\n") + "\n]}\n"
        return Data(text.utf8)
    }

    /// Writes ``traceEventJSON()`` to `url`.
    ///
    /// It creates the file where nothing exists, or replaces a trace written earlier; anything else
    /// at `url` — a directory, a link, another file — is left untouched.
    ///
    /// - Throws: ``TraceError/notReplaceable(path:reason:)`` when `url` names something else than an
    ///   earlier trace; ``TraceError/unwritableFile(path:reason:)`` when the file cannot be written.
    public func write(to url: URL) throws {
        let manager = FileManager.default
        if let attributes = try? manager.attributesOfItem(atPath: url.path) {
            // NB: `attributesOfItem` does not follow a final symbolic link: a link is refused as it is.
            guard attributes[.type] as? FileAttributeType == .typeRegular else {
                throw TraceError.notReplaceable(path: url.path, reason: "it is not a file")
            }
            guard let handle = FileHandle(forReadingAtPath: url.path),
                let head = try? handle.read(upToCount: 256), (try? handle.close()) != nil,
                String(decoding: head, as: UTF8.self).contains(Self.generatorMark)
            else {
                throw TraceError.notReplaceable(path: url.path, reason: "it is not a performance trace")
            }
        }
        do {
            try traceEventJSON().write(to: url, options: .atomic)
        } catch {
            throw TraceError.unwritableFile(path: url.path, reason: "\(error.localizedDescription)")
        }
    }

    /// The track of each effect, by its index in `records`: the first of the effect tracks, numbered
    /// from `last + 1`, whose effects all ended before it began.
    private func effectLanes(of records: [TraceRecord], after last: Int) -> [Int: Int] {
        var ends: [UInt64] = []
        var lanes: [Int: Int] = [:]
        let effects = records.indices.filter { records[$0].kind == .effect }
        for index in effects.sorted(by: { records[$0].start < records[$1].start }) {
            let record = records[index]
            let lane = ends.firstIndex { $0 <= record.start } ?? ends.count
            if lane == ends.count { ends.append(record.end) } else { ends[lane] = record.end }
            lanes[index] = last + 1 + lane
        }
        return lanes
    }
}

/// Nanoseconds as microseconds, with three decimals.
private func microseconds(_ nanoseconds: UInt64) -> String {
    let fraction = String(nanoseconds % 1_000)
    return "\(nanoseconds / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}

/// `text` as a JSON string, quoted and escaped.
private func jsonString(_ text: String) -> String {
    var escaped = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case "\n": escaped += "\\n"
        case "\r": escaped += "\\r"
        case "\t": escaped += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return escaped + "\""
}
