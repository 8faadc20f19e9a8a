import Fluxion
import Foundation

extension ActionName where Payload == String {
    /// Appends a note to ``NotesStore``.
    static var addNote: Self { "addNote" }
    /// Makes ``NotesStore``'s handler throw.
    static var rejectNote: Self { "rejectNote" }
}

struct NotesState: Codable, Sendable, Equatable {
    var notes: [String] = []
    var revision = 0
}

/// A persistent store of notes; each note bumps the revision.
final class NotesStore: Store<NotesState>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: NotesState()) }

    override class var handlers: HandlerTable<NotesState> {
        HandlerTable()
            .on(.addNote) { state, action in
                state.notes.append(action.payload)
                state.revision += 1
            }
            .on(.rejectNote) { state, action in
                state.revision += 1
                throw TestError(action.payload)
            }
    }
}

/// The archive JSON the persistence writes: `{"version": N, "state": …}`.
private struct TestArchive<State: Codable>: Codable {
    let version: Int
    let state: State
}

/// An archive of `state` in schema version `version`.
func archive<State: Codable>(_ state: State, version: Int = 1) throws -> Data {
    try JSONEncoder().encode(TestArchive(version: version, state: state))
}

/// Decodes an archive's version and state.
func unarchive<State: Codable>(_ type: State.Type, from data: Data) throws -> (version: Int, state: State) {
    let archive = try JSONDecoder().decode(TestArchive<State>.self, from: data)
    return (archive.version, archive.state)
}

/// A new, empty directory under the temporary directory; remove it with ``removeDirectory(_:)``.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("FluxionTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func removeDirectory(_ url: URL) {
    try? FileManager.default.removeItem(at: url)
}

/// The names of the files in `directory`, sorted.
func fileNames(in directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
}
