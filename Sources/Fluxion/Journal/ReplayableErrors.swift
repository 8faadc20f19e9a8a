/// The error types a dispatcher's journal records as values, by their qualified names: what
/// ``Dispatcher/registerReplayableError(_:)`` registers, for recording and for replay.
///
/// A journal records an error of a registered type as JSON with its type's name, and marks its step
/// replayable; a replay decodes it as that type again. Two types of one qualified name (private types of
/// one name in one module) cannot be told apart: neither is, and their errors are recorded by description.
final class ReplayableErrors: Sendable {
    /// A registered type: its identity, and how to decode one of its errors.
    private struct Known: Sendable {
        let id: ObjectIdentifier
        let decode: @Sendable (JSONValue) throws -> any Error
    }

    /// The types registered, by qualified name; more than one under a name makes that name ambiguous.
    private let known = Guarded<[String: [Known]]>([:])

    /// Registers `type`; registering it again changes nothing.
    func register<Failure: Error & Codable>(_ type: Failure.Type) {
        let name = qualifiedTypeName(type)
        let id = ObjectIdentifier(type)
        let decode: @Sendable (JSONValue) throws -> any Error = { json in
            guard let error = try json.decode(as: Failure.self) as? Failure else {
                throw DecodingError.typeMismatch(Failure.self, .init(codingPath: [], debugDescription: "not decoded"))
            }
            return error
        }
        known.withLock { known in
            guard known[name]?.contains(where: { $0.id == id }) != true else { return }
            known[name, default: []].append(Known(id: id, decode: decode))
        }
    }

    /// The name under which `error` is recorded as a value, and its JSON; `nil` when its type is not
    /// registered (or shares its name with another), or it does not encode.
    func record(_ error: any Error) -> (type: String, value: JSONValue)? {
        let type = Swift.type(of: error)
        let name = qualifiedTypeName(type)
        let isKnown = known.withLock { known in
            known[name]?.count == 1 && known[name]?.first?.id == ObjectIdentifier(type)
        }
        guard isKnown, let value = JSONValue(encoding: error) else { return nil }
        return (name, value)
    }

    /// The error `value` records, decoded as the type registered under `name`.
    ///
    /// - Throws: ``ReplayableErrors/Unknown`` when no type, or more than one, is registered under `name`;
    ///   the decoding error when `value` does not decode as the type.
    func decode(_ value: JSONValue, as name: String) throws -> any Error {
        let decode = known.withLock { known in known[name]?.count == 1 ? known[name]?.first?.decode : nil }
        guard let decode else { throw Unknown(name: name) }
        return try decode(value)
    }

    /// No type is registered under the name, or more than one.
    struct Unknown: Error, CustomStringConvertible {
        let name: String

        var description: String {
            "its error type \(name) is not registered for replay with the dispatcher replayed into "
                + "(see registerReplayableError(_:))"
        }
    }
}
