import Fluxion
import Testing

@Suite struct PersistenceErrorTests {
    @Test(arguments: [
        PersistenceError.invalidKey("a/b", reason: "'/' is not allowed"),
        .invalidConfiguration(key: "todos", reason: "the schema version 0 is below 1"),
        .loadFailed(key: "todos", setAsideAs: "/state/todos.json.corrupt-X", reason: "Permission denied"),
        .corruptArchive(key: "todos", setAsideAs: nil, reason: "not valid JSON"),
        .newerVersion(key: "todos", found: 3, supported: 2, setAsideAs: "/state/todos.json.corrupt-X"),
        .migrationFailed(key: "todos", from: 1, to: 2, setAsideAs: nil, reason: "no titles"),
        .setAsideFailed(key: "todos", reason: "Read-only file system"),
        .saveFailed(key: "todos", reason: "No space left on device"),
        .locationReleased(key: "todos", location: "the directory /state"),
    ])
    func eachMessageNamesTheArchiveAndWhatWasWrong(error: PersistenceError) {
        let message = error.description
        #expect(message.contains("'todos'") || message.contains("'a/b'"))
        switch error {
        case .invalidKey(_, let reason), .invalidConfiguration(_, let reason), .loadFailed(_, _, let reason),
            .corruptArchive(_, _, let reason), .migrationFailed(_, _, _, _, let reason), .setAsideFailed(_, let reason),
            .saveFailed(_, let reason), .fileOperationFailed(_, _, let reason):
            #expect(message.contains(reason))
        case .newerVersion(_, let found, let supported, _):
            #expect(message.contains("version \(found)") && message.contains("version \(supported)"))
        case .locationInUse(let location, _), .locationReleased(_, let location):
            #expect(message.contains(location))
        }
    }

    @Test func aBadArchiveMessageSaysWhereTheArchiveWentAndThatTheStoreStartsFresh() {
        let kept = PersistenceError.corruptArchive(key: "todos", setAsideAs: "/s/todos.json.corrupt-X", reason: "bad")
        let lost = PersistenceError.corruptArchive(key: "todos", setAsideAs: nil, reason: "bad")

        #expect(kept.description.contains("kept aside as /s/todos.json.corrupt-X"))
        #expect(kept.description.contains("initial state"))
        #expect(!lost.description.contains("kept aside"))
        #expect(lost.description.contains("initial state"))
    }

    @Test func aFileOperationMessageNamesTheOperationAndThePath() {
        let error = PersistenceError.fileOperationFailed(
            operation: "rename over", path: "/s/todos.json", reason: "Not a directory (errno 20)")
        #expect(error.description == "Could not rename over /s/todos.json: Not a directory (errno 20)")
    }

    /// The refusal names the location, who holds it, and the two ways to release it.
    @Test(arguments: [false, true])
    func aLocationInUseMessageSaysHowToReleaseIt(byAnotherProcess: Bool) {
        let error = PersistenceError.locationInUse(location: "the directory /state", byAnotherProcess: byAnotherProcess)
        let message = error.description

        #expect(message.contains("the directory /state"))
        #expect(message.contains(byAnotherProcess ? "Another process" : "Another live dispatcher of this process"))
        #expect(message.contains("one dispatcher at a time"))
        #expect(message.contains("`await shutdown()`"))
        #expect(message.contains("let go of it"))
    }

    @Test func aReleasedLocationMessageSaysTheStateStaysInMemory() {
        let error = PersistenceError.locationReleased(key: "todos", location: "the directory /state")
        #expect(error.description.contains("'todos'"))
        #expect(error.description.contains("released the directory /state"))
        #expect(error.description.contains("stays in memory only"))
    }
}
