import Foundation
import Testing

@testable import Fluxion

@Suite struct FileStateStorageTests {
    @Test func aStoreRoundTripsThroughIt() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        try roundTrip(through: FileStateStorage(directory: directory))
        #expect(fileNames(in: directory) == [".fluxion.lock", "notes.json"])  // NB: the lock file stays
    }

    @Test func aSavedArchiveLoadsBackFromItsOwnJSONFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let storage = FileStateStorage(directory: directory)
        let data = try archive(NotesState(notes: ["a"], revision: 1))

        try storage.save(data, key: "notes")

        #expect(try storage.load(key: "notes") == data)
        #expect(fileNames(in: directory) == ["notes.json"])
        #expect(try storage.fileURL(forKey: "notes") == directory.appendingPathComponent("notes.json"))
    }

    @Test func aSaveReplacesTheOldArchiveAndLeavesNoTemporaryFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let storage = FileStateStorage(directory: directory)

        try storage.save(Data("old".utf8), key: "notes")
        try storage.save(Data("new".utf8), key: "notes")

        #expect(try storage.load(key: "notes") == Data("new".utf8))
        #expect(fileNames(in: directory) == ["notes.json"])
    }

    @Test func aMissingArchiveOrDirectoryLoadsAsNil() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }

        #expect(try FileStateStorage(directory: directory).load(key: "notes") == nil)
        #expect(try FileStateStorage(directory: directory.appendingPathComponent("absent")).load(key: "notes") == nil)
    }

    @Test func theFirstSaveCreatesTheDirectory() throws {
        let parent = try makeTemporaryDirectory()
        defer { removeDirectory(parent) }
        let storage = FileStateStorage(directory: parent.appendingPathComponent("nested/state"))

        try storage.save(Data("x".utf8), key: "notes")

        #expect(try storage.load(key: "notes") == Data("x".utf8))
    }

    @Test func loadingRemovesTheTemporaryFilesAnInterruptedSaveLeft() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let storage = FileStateStorage(directory: directory)
        try storage.save(Data("whole".utf8), key: "notes")
        let leftover = directory.appendingPathComponent(".notes.json.tmp-1234")
        let otherKeys = directory.appendingPathComponent(".other.json.tmp-1234")
        try Data("tor".utf8).write(to: leftover)
        try Data("n".utf8).write(to: otherKeys)

        #expect(try storage.load(key: "notes") == Data("whole".utf8))

        #expect(fileNames(in: directory) == [".other.json.tmp-1234", "notes.json"])
    }

    @Test func settingAsideRenamesTheFileAndNeverReplacesAnother() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let storage = FileStateStorage(directory: directory)

        try storage.save(Data("first".utf8), key: "notes")
        let first = try storage.setAside(key: "notes", suffix: ".corrupt-X")
        try storage.save(Data("second".utf8), key: "notes")
        let second = try storage.setAside(key: "notes", suffix: ".corrupt-X")

        #expect(first == directory.appendingPathComponent("notes.json.corrupt-X").path)
        #expect(second == first + "-2")
        #expect(FileManager.default.contents(atPath: first) == Data("first".utf8))
        #expect(FileManager.default.contents(atPath: second) == Data("second".utf8))
        #expect(try storage.load(key: "notes") == nil)
    }

    @Test func settingAsideAMissingArchiveIsAnErrorNamingTheFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let storage = FileStateStorage(directory: directory)

        #expect {
            try storage.setAside(key: "notes", suffix: ".corrupt-X")
        } throws: { error in
            guard case .fileOperationFailed("rename aside", let path, let reason)? = error as? PersistenceError else {
                return false
            }
            return path.hasSuffix("notes.json") && reason.contains("errno")
        }
    }

    @Test func aKeyThatIsNotAFileNameIsAnError() throws {
        let storage = FileStateStorage(directory: URL(fileURLWithPath: "/tmp"))
        #expect {
            try storage.save(Data(), key: "etc/passwd")
        } throws: { error in
            guard case .invalidKey("etc/passwd", let reason)? = error as? PersistenceError else { return false }
            return reason.contains("'/'")
        }
    }

    @Test func aSaveIntoAFileInsteadOfADirectoryIsAnErrorNamingIt() throws {
        let parent = try makeTemporaryDirectory()
        defer { removeDirectory(parent) }
        let blocker = parent.appendingPathComponent("state")
        try Data("in the way".utf8).write(to: blocker)

        #expect(
            throws: PersistenceError.fileOperationFailed(
                operation: "use the directory", path: blocker.path, reason: "it exists and is not a directory")
        ) {
            try FileStateStorage(directory: blocker).save(Data("x".utf8), key: "notes")
        }
    }

    // MARK: Durability and failed saves

    @Test func aSaveFlushesTheTemporaryFileRenamesItThenFlushesTheDirectory() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let scripted = ScriptedFileSystemCalls()
        let storage = FileStateStorage(directory: directory, calls: scripted.calls)

        try storage.save(Data("durable".utf8), key: "notes")

        let path = try storage.fileURL(forKey: "notes").path
        let archive = try #require(FileNode(path: path))  // a rename keeps the node: it is the temporary file's
        let folder = try #require(FileNode(path: directory.path))
        #expect(!archive.isDirectory && folder.isDirectory)
        #expect(scripted.recorded == [.write(archive), .fsync(archive), .rename(archive, to: path), .fsync(folder)])
        #expect(try storage.load(key: "notes") == Data("durable".utf8))
    }

    @Test(arguments: [
        (FileCall.Kind.write, "write"),
        (FileCall.Kind.fsync, "flush to disk"),
        (FileCall.Kind.rename, "rename over"),
    ])
    func aFailedStepOfASaveIsAnErrorNamingItAndLeavesOnlyTheOldArchive(
        failing kind: FileCall.Kind, operation: String
    ) throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let scripted = ScriptedFileSystemCalls()
        let storage = FileStateStorage(directory: directory, calls: scripted.calls)
        try storage.save(Data("old".utf8), key: "notes")
        scripted.fail(kind, errno: EIO)

        #expect {
            try storage.save(Data("new".utf8), key: "notes")
        } throws: { error in
            guard case .fileOperationFailed(operation, let path, let reason)? = error as? PersistenceError else {
                return false
            }
            let named = kind == .rename ? "notes.json" : ".notes.json.tmp-"
            return URL(fileURLWithPath: path).lastPathComponent.hasPrefix(named) && reason.contains("(errno \(EIO))")
        }
        #expect(fileNames(in: directory) == ["notes.json"])
        #expect(try storage.load(key: "notes") == Data("old".utf8))
    }

    /// Fails for real, without the seam: a file cannot be renamed over a directory (EISDIR).
    @Test func aSaveThatCannotReplaceTheArchiveLeavesNoTemporaryFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let storage = FileStateStorage(directory: directory)
        let path = try storage.fileURL(forKey: "notes").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)

        #expect {
            try storage.save(Data("new".utf8), key: "notes")
        } throws: { error in
            guard case .fileOperationFailed("rename over", path, let reason)? = error as? PersistenceError else {
                return false
            }
            return reason.contains("(errno \(EISDIR))")
        }
        #expect(fileNames(in: directory) == ["notes.json"])
    }
}
