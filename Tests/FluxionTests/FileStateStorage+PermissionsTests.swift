import Foundation
import Testing

@testable import Fluxion

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The permission bits of what is at `path`, by `stat`; `nil` when nothing is there.
private func mode(of path: String) -> UInt16? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return UInt16(info.st_mode & 0o7777)
}

@Suite struct FileStateStoragePermissionsTests {
    @Test func anArchiveIsReadableAndWritableByItsOwnerOnly() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let storage = FileStateStorage(directory: directory)

        try storage.save(Data("private".utf8), key: "notes")

        #expect(storage.permissions == .ownerOnly)
        #expect(mode(of: try storage.fileURL(forKey: "notes").path) == 0o600)
    }

    @Test func theTemporaryFileIsOwnerOnlyBeforeAnyByteIsWritten() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let modes = Recorder<UInt16>()
        let system = FileSystemCalls.system
        let calls = FileSystemCalls(
            write: { descriptor, bytes, count in
                var info = stat()
                if fstat(descriptor, &info) == 0 { modes.append(UInt16(info.st_mode & 0o7777)) }
                return system.write(descriptor, bytes, count)
            },
            fsync: system.fsync,
            rename: system.rename)

        try FileStateStorage(directory: directory, calls: calls).save(Data("private".utf8), key: "notes")

        #expect(modes.values == [0o600])
    }

    @Test func theDirectoriesItCreatesAreOwnerOnlyAndTheOthersKeepTheirMode() throws {
        let parent = try makeTemporaryDirectory()
        defer { removeDirectory(parent) }
        #expect(chmod(parent.path, 0o755) == 0)
        let storage = FileStateStorage(directory: parent.appendingPathComponent("app/state"))

        try storage.save(Data("x".utf8), key: "notes")

        #expect(mode(of: parent.appendingPathComponent("app").path) == 0o700)
        #expect(mode(of: parent.appendingPathComponent("app/state").path) == 0o700)
        #expect(mode(of: parent.path) == 0o755)
        #expect(try storage.load(key: "notes") == Data("x".utf8))
    }

    @Test func anExistingDirectoryKeepsItsMode() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        #expect(chmod(directory.path, 0o750) == 0)

        try FileStateStorage(directory: directory).save(Data("x".utf8), key: "notes")

        #expect(mode(of: directory.path) == 0o750)
    }

    @Test func aSaveMakesAnArchiveThatOthersCouldReadOwnerOnly() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let storage = FileStateStorage(directory: directory)
        let path = try storage.fileURL(forKey: "notes").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o644) == 0)

        try storage.save(Data("new".utf8), key: "notes")

        #expect(mode(of: path) == 0o600)
    }

    @Test(arguments: [
        FileStateStorage.Permissions.readableByAll,
        FileStateStorage.Permissions(file: 0o664, directory: 0o775),
        FileStateStorage.Permissions(file: 0o640, directory: 0o750),
    ])
    func otherPermissionsAreAppliedAsGivenWhateverTheUmask(permissions: FileStateStorage.Permissions) throws {
        let parent = try makeTemporaryDirectory()
        defer { removeDirectory(parent) }
        let directory = parent.appendingPathComponent("shared")
        let storage = FileStateStorage(directory: directory, permissions: permissions)

        try storage.save(Data("shared".utf8), key: "notes")

        #expect(mode(of: try storage.fileURL(forKey: "notes").path) == permissions.file)
        #expect(mode(of: directory.path) == permissions.directory)
    }

    @Test func theArticlesChoicesSayWhatTheyGive() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        // As in "Persisting State":
        let readable = FileStateStorage(directory: directory, permissions: .readableByAll)  // 0644 and 0755
        let shared = FileStateStorage(directory: directory, permissions: .init(file: 0o640, directory: 0o750))

        #expect(readable.permissions == FileStateStorage.Permissions(file: 0o644, directory: 0o755))
        #expect(shared.permissions == FileStateStorage.Permissions(file: 0o640, directory: 0o750))
        #expect(FileStateStorage.Permissions.ownerOnly == FileStateStorage.Permissions(file: 0o600, directory: 0o700))
    }

    @Test func onlyThePermissionBitsCount() throws {
        let parent = try makeTemporaryDirectory()
        defer { removeDirectory(parent) }
        let directory = parent.appendingPathComponent("state")
        let storage = FileStateStorage(directory: directory, permissions: .init(file: 0o4640, directory: 0o3750))

        try storage.save(Data("x".utf8), key: "notes")

        #expect(mode(of: try storage.fileURL(forKey: "notes").path) == 0o640)
        #expect(mode(of: directory.path) == 0o750)
    }

    /// Fails for real, as any account (root included): a name longer than a file system allows.
    @Test func aDirectoryThatCannotBeCreatedIsAnErrorNamingIt() throws {
        let parent = try makeTemporaryDirectory()
        defer { removeDirectory(parent) }
        let tooLong = parent.appendingPathComponent(String(repeating: "x", count: 300))

        #expect {
            try FileStateStorage(directory: tooLong.appendingPathComponent("state")).save(Data("x".utf8), key: "notes")
        } throws: { error in
            guard
                case .fileOperationFailed("create the directory", tooLong.path, let reason)? = error
                    as? PersistenceError
            else { return false }
            return reason.contains("(errno \(ENAMETOOLONG))")
        }
        #expect(fileNames(in: parent) == [])
    }
}
