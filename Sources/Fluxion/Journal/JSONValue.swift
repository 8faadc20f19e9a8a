import Foundation

/// A JSON value: how a journal holds recorded payloads and states, so it can redact, compare and
/// decode them again with the type the handler table names.
///
/// A value a journal encodes is kept as the text `JSONEncoder` wrote (``text(_:)``), which a line writes
/// as it is: a value is encoded once, and read into its parts only when they are needed (to redact it,
/// or to compare it with a value read from a file).
enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    /// One JSON value's text, as `JSONEncoder` wrote it (sorted keys); never read from a file.
    case text([UInt8])

    /// Decodes this JSON as a value of `type`.
    ///
    /// - Throws: `DecodingError` when it is not one, or when `type` is not `Decodable`.
    func decode(as type: Any.Type) throws -> Any {
        guard let type = type as? any Decodable.Type else {
            throw DecodingError.typeMismatch(
                type, .init(codingPath: [], debugDescription: "\(type) is not Decodable"))
        }
        if case .text(let text) = self { return try JSONDecoder().decode(type, from: Data(text)) }
        return try JSONDecoder().decode(type, from: JSONValue.encoder.encode(self))
    }

    /// This value read into its parts: a ``text(_:)`` parsed (`null` if it is not JSON), any other as it is.
    var parsed: JSONValue {
        guard case .text(let text) = self else { return self }
        return (try? text.withUnsafeBytes { try JSONValue(parsing: $0) }) ?? .null
    }

    /// Whether two values are the same JSON, however each is held.
    static func == (first: JSONValue, second: JSONValue) -> Bool {
        switch (first, second) {
        case (.null, .null): true
        case (.bool(let first), .bool(let second)): first == second
        case (.integer(let first), .integer(let second)): first == second
        case (.number(let first), .number(let second)): first == second
        case (.string(let first), .string(let second)): first == second
        case (.array(let first), .array(let second)): first == second
        case (.object(let first), .object(let second)): first == second
        case (.text(let first), .text(let second)) where first == second: true
        case (.text, _), (_, .text): first.parsed == second.parsed
        default: false
        }
    }

    /// This value with the value of every object key in `keys`, at any depth, replaced by `"‹redacted›"`.
    func redacting(_ keys: Set<String>) -> JSONValue {
        guard !keys.isEmpty else { return self }
        switch self {
        case .text:
            return parsed.redacting(keys)
        case .array(let values):
            return .array(values.map { $0.redacting(keys) })
        case .object(let members):
            var redacted: [String: JSONValue] = [:]
            for (key, value) in members {
                redacted[key] = keys.contains(key) ? .string("‹redacted›") : value.redacting(keys)
            }
            return .object(redacted)
        default:
            return self
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .text: try container.encode(parsed)
        }
    }

    /// Encodes with sorted keys, so that equal values have equal text.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
