/// Encodes a value as its canonical JSON: the same for equal values, in every process.
///
/// `JSONEncoder` writes a set's elements, and the keys and values of a dictionary keyed by anything but a
/// `String` or an `Int` (a flat array), in the order the collection holds them, which its hash seed decides:
/// each process, and each collection, has its own. Here such a collection's elements (or key–value pairs)
/// are sorted by their own canonical text; an object's keys have no order (``JSONValue/object(_:)``).
///
/// The value under an object key in `redactedKeys` is `"‹redacted›"`, at any depth, as a journal redacts
/// it, and before the collection holding it is sorted: two states whose only difference is under such a key
/// have one canonical form.
///
/// Two values of one type have one canonical form when they encode alike but for the order of their sets
/// and dictionaries. The form is only ever compared with another value's of the same type, never written.
struct CanonicalEncoder {
    /// The keys whose values are redacted.
    let redactedKeys: Set<String>

    /// The canonical form of `value`.
    ///
    /// - Throws: `EncodingError.invalidValue` when `value` is not `Encodable`; what its `encode(to:)` throws.
    func encode(_ value: Any) throws -> JSONValue {
        guard let value = value as? any Encodable else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "it is not Encodable"))
        }
        return try CanonicalEncoding.box(value, redacting: redactedKeys, at: [])
    }
}

/// A set or a dictionary: a collection whose order is not part of its value.
private protocol UnorderedCollection {
    /// Whether, encoded as an array, it is written as keys and values in turn, each pair one entry.
    static var isWrittenInPairs: Bool { get }
}

extension Set: UnorderedCollection {
    static var isWrittenInPairs: Bool { false }
}

extension Dictionary: UnorderedCollection {
    static var isWrittenInPairs: Bool { true }
}

/// Where an encoding writes: a value, or an object or array whose members are written later.
private final class Node {
    enum Content {
        case value(JSONValue)
        case object([String: Node])
        case array([Node])
    }

    var content: Content?

    init(_ content: Content? = nil) {
        self.content = content
    }

    /// What was written here; an encoding that wrote nothing is an empty object, as `JSONEncoder` writes it.
    var json: JSONValue {
        switch content {
        case nil: .object([:])
        case .value(let value): value
        case .object(let members): .object(members.mapValues(\.json))
        case .array(let elements): .array(elements.map(\.json))
        }
    }
}

/// The `Encoder` a value's `encode(to:)` writes its canonical form into.
private final class CanonicalEncoding: Encoder {
    let node = Node()
    let redactedKeys: Set<String>
    let codingPath: [any CodingKey]
    /// The type being encoded: a single value of it written in its own `encode(to:)` is not encoded again.
    let subject: Any.Type
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(redacting keys: Set<String>, at codingPath: [any CodingKey], subject: Any.Type) {
        redactedKeys = keys
        self.codingPath = codingPath
        self.subject = subject
    }

    /// The canonical form of `value`: a number, string or Boolean as it is, anything else as it encodes itself,
    /// a set's elements and a dictionary's pairs sorted.
    static func box(_ value: any Encodable, redacting keys: Set<String>, at codingPath: [any CodingKey]) throws
        -> JSONValue
    {
        if let primitive = primitive(value) { return primitive }
        let encoding = CanonicalEncoding(redacting: keys, at: codingPath, subject: type(of: value))
        try value.encode(to: encoding)
        let json = encoding.node.json
        guard let unordered = type(of: value) as? any UnorderedCollection.Type, case .array(let elements) = json
        else { return json }
        guard unordered.isWrittenInPairs else { return .array(sorted(elements.map { [$0] })) }
        guard elements.count.isMultiple(of: 2) else { return json }
        let pairs = stride(from: 0, to: elements.count - 1, by: 2).map { [elements[$0], elements[$0 + 1]] }
        return .array(sorted(pairs))
    }

    /// Groups of values sorted by their canonical text, flattened.
    private static func sorted(_ groups: [[JSONValue]]) -> [JSONValue] {
        groups.map { group in
            var text: [UInt8] = []
            for value in group {
                value.write(to: &text)
                text.append(0)
            }
            return (group, text)
        }
        .sorted { $0.1.lexicographicallyPrecedes($1.1) }
        .flatMap(\.0)
    }

    /// A number, a string or a Boolean as JSON; `nil` for any other value. A number that is not finite, or
    /// an unsigned one beyond `Int64`, is its text.
    static func primitive(_ value: Any) -> JSONValue? {
        switch value {
        case let value as Bool: return .bool(value)
        case let value as String: return .string(value)
        case let value as Double: return value.isFinite ? .number(value) : .string("\(value)")
        case let value as Float: return value.isFinite ? .number(Double(value)) : .string("\(value)")
        case let value as any BinaryInteger:
            return Int64(exactly: value).map(JSONValue.integer) ?? .string("\(value)")
        default: return nil
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object? = node.content {} else { node.content = .object([:]) }
        return KeyedEncodingContainer(KeyedContainer(node: node, encoding: self, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array? = node.content {} else { node.content = .array([]) }
        return UnkeyedContainer(node: node, encoding: self, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, encoding: self)
    }

    /// The canonical form of `value`, a member at `codingPath`.
    func box(_ value: any Encodable, at codingPath: [any CodingKey]) throws -> JSONValue {
        try Self.box(value, redacting: redactedKeys, at: codingPath)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let encoding: CanonicalEncoding
    let codingPath: [any CodingKey]

    /// Sets the member `name`; its value is the redacted text when `name` is a redacted key.
    private func set(_ name: String, to member: Node) {
        guard case .object(var members) = node.content else { return }
        let isRedacted = encoding.redactedKeys.contains(name)
        members[name] = isRedacted ? Node(.value(.string(StateDiff.redactedText))) : member
        node.content = .object(members)
    }

    mutating func encodeNil(forKey key: Key) throws {
        set(key.stringValue, to: Node(.value(.null)))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        guard !encoding.redactedKeys.contains(key.stringValue) else { return set(key.stringValue, to: Node()) }
        set(key.stringValue, to: Node(.value(try encoding.box(value, at: codingPath + [key]))))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let member = Node(.object([:]))
        set(key.stringValue, to: member)
        return KeyedEncodingContainer(
            KeyedContainer<NestedKey>(node: member, encoding: encoding, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let member = Node(.array([]))
        set(key.stringValue, to: member)
        return UnkeyedContainer(node: member, encoding: encoding, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        member(named: "super", at: codingPath + [MemberKey(stringValue: "super")])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        member(named: key.stringValue, at: codingPath + [key])
    }

    /// An encoder that writes the member `name`.
    private func member(named name: String, at path: [any CodingKey]) -> any Encoder {
        let encoder = CanonicalEncoding(redacting: encoding.redactedKeys, at: path, subject: encoding.subject)
        set(name, to: encoder.node)
        return encoder
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: Node
    let encoding: CanonicalEncoding
    let codingPath: [any CodingKey]

    var count: Int {
        guard case .array(let elements) = node.content else { return 0 }
        return elements.count
    }

    private func append(_ element: Node) {
        guard case .array(var elements) = node.content else { return }
        elements.append(element)
        node.content = .array(elements)
    }

    mutating func encodeNil() throws {
        append(Node(.value(.null)))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(Node(.value(try encoding.box(value, at: codingPath + [MemberKey(count)]))))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let element = Node(.object([:]))
        let path = codingPath + [MemberKey(count)]
        append(element)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: element, encoding: encoding, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let element = Node(.array([]))
        let path = codingPath + [MemberKey(count)]
        append(element)
        return UnkeyedContainer(node: element, encoding: encoding, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = CanonicalEncoding(
            redacting: encoding.redactedKeys, at: codingPath + [MemberKey(count)], subject: encoding.subject)
        append(encoder.node)
        return encoder
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let node: Node
    let encoding: CanonicalEncoding
    var codingPath: [any CodingKey] { encoding.codingPath }

    mutating func encodeNil() throws {
        node.content = .value(.null)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // NB: a value that writes itself as a single value of its own type (as `Int128` may) is its text.
        let isItself = CanonicalEncoding.primitive(value) == nil && T.self == encoding.subject
        node.content = .value(isItself ? .string(String(describing: value)) : try encoding.box(value, at: codingPath))
    }
}

/// The key of an array's element, or of a superclass's encoding.
private struct MemberKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ index: Int) {
        stringValue = "\(index)"
        intValue = index
    }

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init?(intValue: Int) {
        self.init(intValue)
    }
}
