import Foundation

// A line's JSON text, written by hand, as `JSONEncoder` would write the `Codable` line with sorted keys and
// times as `iso8601(_:)` writes them: the writer writes every step, and `Codable` costs many times more per line.
extension JournalLine {
    /// This line as one line of JSON text, with its newline.
    func encoded() -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(256)
        write(to: &text)
        return text
    }

    /// Appends this line as one line of JSON text, with its newline.
    func write(to text: inout [UInt8]) {
        var object = JSONObjectWriter(&text)
        object.member("action", action, to: &text) { $0.write(to: &$1) }
        object.member("actions", actions, to: &text) { actions, text in
            JSONObjectWriter.array(actions, into: &text) { $0.write(to: &$1) }
        }
        object.member("cause", cause, to: &text) { $0.write(to: &$1) }
        object.member("changes", changes, to: &text) { changes, text in
            JSONObjectWriter.array(changes, into: &text) { $0.write(to: &$1) }
        }
        object.member("effect", effect, to: &text) { $0.write(to: &$1) }
        object.member("format", format, to: &text)
        object.member("kind", kind.rawValue, to: &text)
        object.member("redactedKeys", redactedKeys, to: &text) { keys, text in
            JSONObjectWriter.array(keys, into: &text) { JSONValue.write($0, to: &$1) }
        }
        object.member("refusal", refusal, to: &text) { $0.write(to: &$1) }
        object.member("replayable", replayable, to: &text)
        object.member("sequence", sequence, to: &text)
        object.member("time", time.map(Self.iso8601), to: &text)
        object.member("version", version, to: &text)
        object.end(&text)
        text.append(0x0A)
    }
}

extension JournalLine.Action {
    fileprivate func write(to text: inout [UInt8]) {
        var object = JSONObjectWriter(&text)
        object.member("description", description, to: &text)
        object.member("error", error, to: &text)
        object.member("errorType", errorType, to: &text)
        object.member("errorValue", errorValue, to: &text) { $0.write(to: &$1) }
        object.member("name", name, to: &text)
        object.member("payload", payload, to: &text) { $0.write(to: &$1) }
        object.member("redacted", redacted, to: &text)
        object.member("store", store, to: &text)
        object.end(&text)
    }
}

extension JournalLine.Refusal {
    fileprivate func write(to text: inout [UInt8]) {
        var object = JSONObjectWriter(&text)
        object.member("error", error, to: &text)
        object.member("errorType", errorType, to: &text)
        object.member("errorValue", errorValue, to: &text) { $0.write(to: &$1) }
        object.member("reason", reason.rawValue, to: &text)
        object.member("redacted", redacted, to: &text)
        object.end(&text)
    }
}

extension JournalLine.Change {
    fileprivate func write(to text: inout [UInt8]) {
        var object = JSONObjectWriter(&text)
        object.member("after", after, to: &text) { $0.write(to: &$1) }
        object.member("before", before, to: &text) { $0.write(to: &$1) }
        object.member("diff", diff, to: &text) { diff, text in
            JSONObjectWriter.array(diff, into: &text) { JSONValue.write($0, to: &$1) }
        }
        object.member("store", store, to: &text)
        object.member("type", type, to: &text)
        object.end(&text)
    }
}

extension JournalLine.CauseRef {
    fileprivate func write(to text: inout [UInt8]) {
        var object = JSONObjectWriter(&text)
        object.member("effect", effect, to: &text)
        object.member("queued", queued, to: &text)
        object.member("step", step, to: &text)
        object.end(&text)
    }
}

extension JournalLine.EffectEvent {
    fileprivate func write(to text: inout [UInt8]) {
        var object = JSONObjectWriter(&text)
        object.member("dropped", dropped, to: &text)
        object.member("error", error, to: &text)
        object.member("event", event, to: &text)
        object.member("index", index, to: &text)
        object.member("name", name, to: &text)
        object.end(&text)
    }
}

/// Writes one JSON object's members, in the order given (the callers give them sorted); an absent
/// (`nil`) member is left out, as `Codable` leaves out a `nil` optional.
private struct JSONObjectWriter {
    private var isFirst = true

    /// Begins an object in `text`.
    init(_ text: inout [UInt8]) {
        text.append(UInt8(ascii: "{"))
    }

    mutating func member<Value>(
        _ key: String, _ value: Value?, to text: inout [UInt8], write: (Value, inout [UInt8]) -> Void
    ) {
        guard let value else { return }
        if !isFirst { text.append(UInt8(ascii: ",")) }
        isFirst = false
        JSONValue.write(key, to: &text)
        text.append(UInt8(ascii: ":"))
        write(value, &text)
    }

    mutating func member(_ key: String, _ value: String?, to text: inout [UInt8]) {
        member(key, value, to: &text) { JSONValue.write($0, to: &$1) }
    }

    mutating func member(_ key: String, _ value: Int?, to text: inout [UInt8]) {
        member(key, value, to: &text) { $1 += String($0).utf8 }
    }

    mutating func member(_ key: String, _ value: Bool?, to text: inout [UInt8]) {
        member(key, value, to: &text) { $1 += ($0 ? "true" : "false").utf8 }
    }

    /// Ends the object.
    func end(_ text: inout [UInt8]) {
        text.append(UInt8(ascii: "}"))
    }

    static func array<Element>(
        _ elements: [Element], into text: inout [UInt8], write: (Element, inout [UInt8]) -> Void
    ) {
        text.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            write(element, &text)
        }
        text.append(UInt8(ascii: "]"))
    }
}
