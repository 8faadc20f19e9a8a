import Foundation

// JSON text, read and written by hand: a journal encodes each recorded value once, with `JSONEncoder`,
// keeps that text and writes it into its line as it is, without `Codable`, which would cost many times
// more per step (decoding the text back, then encoding the whole line again). It reads the text into a
// `JSONValue`'s parts only to redact it, or to compare it with a value read from a file.
extension JSONValue {
    /// The JSON form of `value` when it is `Encodable`, encoded once and kept as its text; `nil` otherwise,
    /// or when encoding it fails. An `Int`, a `String` or a `Bool` is its JSON value at once.
    init?(encoding value: Any) {
        // NB: by its type, not a cast: a cast would take an optional, or a bridged value, for one.
        let type = type(of: value)
        if type == Int.self, let value = value as? Int {
            self = .integer(Int64(value))
        } else if type == String.self, let value = value as? String {
            self = .string(value)
        } else if type == Bool.self, let value = value as? Bool {
            self = .bool(value)
        } else {
            guard let value = value as? any Encodable, let data = try? JSONValue.sharedEncoder.encode(value) else {
                return nil
            }
            self = .text([UInt8](data))
        }
    }

    /// Reads one JSON value, the whole of `text`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for text that is not one JSON value.
    init(parsing text: UnsafeRawBufferPointer) throws {
        var reader = JSONReader(bytes: text)
        self = try reader.value()
        reader.skipSpace()
        guard reader.isAtEnd else { throw reader.error("more text after the value") }
    }

    /// Appends this value as JSON text, object keys sorted, as ``encoder`` writes them.
    func write(to text: inout [UInt8]) {
        switch self {
        case .null: text += "null".utf8
        case .bool(let value): text += (value ? "true" : "false").utf8
        case .integer(let value): text += String(value).utf8
        case .number(let value): text += value.description.utf8
        case .string(let value): Self.write(value, to: &text)
        case .text(let json): text += json
        case .array(let values):
            text.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                value.write(to: &text)
            }
            text.append(UInt8(ascii: "]"))
        case .object(let members):
            text.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                Self.write(key, to: &text)
                text.append(UInt8(ascii: ":"))
                members[key]?.write(to: &text)
            }
            text.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `string` as a JSON string, escaped as `JSONEncoder` escapes it (slashes left as they are).
    static func write(_ string: String, to text: inout [UInt8]) {
        var string = string
        text.append(UInt8(ascii: "\""))
        string.withUTF8 { bytes in
            // NB: most strings need no escape: copied whole, they cost a fraction of a byte-by-byte copy.
            guard bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return text.append(contentsOf: bytes)
            }
            for byte in bytes { appendEscaped(byte, to: &text) }
        }
        text.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ byte: UInt8, to text: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): text += #"\""#.utf8
        case UInt8(ascii: "\\"): text += #"\\"#.utf8
        case 0x0A: text += #"\n"#.utf8
        case 0x0D: text += #"\r"#.utf8
        case 0x09: text += #"\t"#.utf8
        case 0x08: text += #"\b"#.utf8
        case 0x0C: text += #"\f"#.utf8
        case ..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            text += #"\u00"#.utf8
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        default: text.append(byte)
        }
    }

    /// One encoder for every value a journal writes: it keeps no state between calls.
    static let sharedEncoder = encoder
}

/// Reads JSON text, byte by byte.
private struct JSONReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset >= bytes.count }

    func error(_ reason: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "not JSON at byte \(offset): \(reason)"))
    }

    mutating func skipSpace() {
        while offset < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
    }

    mutating func value() throws -> JSONValue {
        skipSpace()
        guard offset < bytes.count else { throw error("the text ends") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws -> JSONValue {
        for byte in word.utf8 {
            guard offset < bytes.count, bytes[offset] == byte else { throw error("expected \(word)") }
            offset += 1
        }
        return value
    }

    private mutating func expect(_ byte: UInt8) throws {
        skipSpace()
        guard offset < bytes.count, bytes[offset] == byte else { throw error("expected '\(Character(.init(byte)))'") }
        offset += 1
    }

    /// Whether the next byte, past spaces, is `byte`; it is skipped if so.
    private mutating func skip(_ byte: UInt8) -> Bool {
        skipSpace()
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    private mutating func object() throws -> JSONValue {
        offset += 1
        var members: [String: JSONValue] = [:]
        if skip(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            skipSpace()
            let key = try string()
            try expect(UInt8(ascii: ":"))
            members[key] = try value()
        } while skip(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
        return .object(members)
    }

    private mutating func array() throws -> JSONValue {
        offset += 1
        var values: [JSONValue] = []
        if skip(UInt8(ascii: "]")) { return .array(values) }
        repeat { values.append(try value()) } while skip(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
        return .array(values)
    }

    private mutating func string() throws -> String {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a string") }
        offset += 1
        var utf8: [UInt8] = []
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"): try escape(into: &utf8)
            default: utf8.append(byte)
            }
        }
        throw error("a string does not end")
    }

    private mutating func escape(into utf8: inout [UInt8]) throws {
        guard offset < bytes.count else { throw error("an escape does not end") }
        let byte = bytes[offset]
        offset += 1
        switch byte {
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar), bytes.count - offset >= 6, bytes[offset] == UInt8(ascii: "\\"),
                bytes[offset + 1] == UInt8(ascii: "u")
            {
                offset += 2
                let low = try hex4()
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low &- 0xDC00)
            }
            utf8 += String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8
        default: utf8.append(byte)  // NB: `"`, `\` and `/` stand for themselves
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard bytes.count - offset >= 4 else { throw error("a \\u escape is cut short") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Character(.init(bytes[offset])).hexDigitValue else { throw error("not a hex digit") }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    private mutating func number() throws -> JSONValue {
        let start = offset
        var isInteger = true
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                isInteger = false
            } else if !(byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || (0x30...0x39).contains(byte)) {
                break
            }
            offset += 1
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let number = Double(text), offset > start else { throw error("not a value") }
        return .number(number)
    }
}
