import Foundation

/// The JSON form of an archive: `{"version": N, "state": …}`.
///
/// The version is read first, so that an archive of another schema version
/// is recognised before its state is decoded.
enum ArchiveFormat {
    /// Why an archive could not be restored.
    enum Problem: Error {
        case corrupt(String)
        case newerVersion(Int)
        case migrationFailed(from: Int, reason: String)
    }

    /// A restored state, and whether it came from an older schema version.
    struct Restored<State> {
        let state: State
        let isMigrated: Bool
    }

    private struct Envelope<State: Encodable>: Encodable {
        let version: Int
        let state: State
    }

    private struct Header: Decodable {
        let version: Int
    }

    private struct Body<State: Decodable>: Decodable {
        let state: State
    }

    /// The archive of `state` in schema version `version`.
    static func encode<State: Encodable>(_ state: State, version: Int) throws -> Data {
        try JSONEncoder().encode(Envelope(version: version, state: state))
    }

    /// The state in `data`, migrated from an older version if needed.
    static func decode<State>(_ data: Data, as persistence: Persistence<State>) -> Result<Restored<State>, Problem> {
        let decoder = JSONDecoder()
        let version: Int
        do {
            version = try decoder.decode(Header.self, from: data).version
        } catch {
            return .failure(.corrupt(describe(error)))
        }
        if version > persistence.version {
            return .failure(.newerVersion(version))
        }
        if version == persistence.version {
            do {
                return .success(
                    Restored(state: try decoder.decode(Body<State>.self, from: data).state, isMigrated: false))
            } catch {
                return .failure(.corrupt(describe(error)))
            }
        }
        guard let migrate = persistence.migrate else {
            do {
                return .success(
                    Restored(state: try decoder.decode(Body<State>.self, from: data).state, isMigrated: true))
            } catch {
                return .failure(
                    .migrationFailed(
                        from: version,
                        reason: "no migration was given, and the archive does not decode as version "
                            + "\(persistence.version): \(describe(error))"
                    )
                )
            }
        }
        let json: Data
        do {
            guard let found = try stateJSON(in: data) else { return .failure(.corrupt("the archive has no state")) }
            json = found
        } catch {
            return .failure(.corrupt(describe(error)))
        }
        do {
            return .success(Restored(state: try migrate(version, json), isMigrated: true))
        } catch {
            return .failure(.migrationFailed(from: version, reason: describe(error)))
        }
    }

    /// The JSON of the `state` member of an archive; `nil` when it has none.
    private static func stateJSON(in data: Data) throws -> Data? {
        let archive = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        guard let members = archive as? [String: Any], let state = members["state"] else { return nil }
        return try JSONSerialization.data(withJSONObject: state, options: [.fragmentsAllowed])
    }
}

/// A short description of an error for a message: a decoding error's own words and where it happened.
func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return String(describing: error) }
    let context: DecodingError.Context
    switch error {
    case .dataCorrupted(let found), .keyNotFound(_, let found), .typeMismatch(_, let found),
        .valueNotFound(_, let found):
        context = found
    @unknown default:
        return String(describing: error)
    }
    let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    var message = context.debugDescription
    if message.hasSuffix(".") { message.removeLast() }
    if let underlying = context.underlyingError { message += " (\(underlying))" }
    return path.isEmpty ? message : "\(message) at \(path.hasPrefix(".") ? String(path.dropFirst()) : path)"
}
