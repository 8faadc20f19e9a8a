import Foundation

/// A JSON value: how a journal holds recorded payloads and states, so it can redact, compare and
/// decode them again with the type the handler table names.
enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decodes this JSON as a value of `type`.
    ///
    /// - Throws: `DecodingError` when it is not one, or when `type` is not `Decodable`.
    func decode(as type: Any.Type) throws -> Any {
        guard let type = type as? any Decodable.Type else {
            throw DecodingError.typeMismatch(
                type, .init(codingPath: [], debugDescription: "\(type) is not Decodable"))
        }
        return try JSONDecoder().decode(type, from: JSONValue.encoder.encode(self))
    }

    /// This value with the value of every object key in `keys`, at any depth, replaced by `"‹redacted›"`.
    func redacting(_ keys: Set<String>) -> JSONValue {
        guard !keys.isEmpty else { return self }
        switch self {
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
        }
    }

    /// Encodes with sorted keys, so that equal values have equal text.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
