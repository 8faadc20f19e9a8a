import Fluxion
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A journal replaces only an earlier journal, or creates its file: it destroys nothing else.
@Suite struct JournalFileSafetyTests {
    private let manager = FileManager.default

    @Test func aDirectoryIsRefusedAndKeptWithWhatItHolds() throws {
        let directory = temporaryJournalURL()
        try manager.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? manager.removeItem(at: directory) }
        let kept = directory.appendingPathComponent("photos.txt")
        try Data("holiday".utf8).write(to: kept)

        #expect(throws: JournalError.notReplaceable(path: directory.path, reason: "it is a directory")) {
            try Journal(recording: makeShelfDispatcher(), writingTo: directory)
        }
        #expect(try String(contentsOf: kept, encoding: .utf8) == "holiday")
    }

    @Test func aSymbolicLinkIsRefusedAndNeitherItNorWhatItNamesChanges() throws {
        let target = temporaryJournalURL()
        let link = temporaryJournalURL()
        try Data("thesis".utf8).write(to: target)
        try manager.createSymbolicLink(at: link, withDestinationURL: target)
        defer { for url in [target, link] { try? manager.removeItem(at: url) } }

        #expect(throws: JournalError.notReplaceable(path: link.path, reason: "it is a symbolic link")) {
            try Journal(recording: makeShelfDispatcher(), writingTo: link)
        }
        #expect(try manager.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8) == "thesis")
    }

    @Test func aLinkToNothingIsRefusedAndNothingIsCreatedThroughIt() throws {
        let target = temporaryJournalURL()
        let link = temporaryJournalURL()
        try manager.createSymbolicLink(at: link, withDestinationURL: target)
        defer { try? manager.removeItem(at: link) }

        #expect(throws: JournalError.notReplaceable(path: link.path, reason: "it is a symbolic link")) {
            try Journal(recording: makeShelfDispatcher(), writingTo: link)
        }
        #expect(!manager.fileExists(atPath: target.path))
    }

    @Test(arguments: ["my notes\nline two\n", "", #"{"kind":"header","format":"someone-else"}"# + "\n"])
    func aFileThatIsNotAJournalIsRefusedAndKept(contents: String) throws {
        let url = temporaryJournalURL()
        try Data(contents.utf8).write(to: url)
        defer { try? manager.removeItem(at: url) }

        #expect(throws: JournalError.notReplaceable(path: url.path, reason: "it is not a Fluxion journal")) {
            try Journal(recording: makeShelfDispatcher(), writingTo: url)
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == contents)
    }

    @Test func aFifoIsRefused() throws {
        let url = temporaryJournalURL()
        #expect(mkfifo(url.path, 0o600) == 0)
        defer { try? manager.removeItem(at: url) }

        #expect(throws: JournalError.notReplaceable(path: url.path, reason: "it is not a regular file")) {
            try Journal(recording: makeShelfDispatcher(), writingTo: url)
        }
    }

    @Test func anEarlierJournalIsReplacedAndKeepsItsOwnerOnlyMode() throws {
        let url = temporaryJournalURL()
        defer { try? manager.removeItem(at: url) }
        let first = try Journal(recording: makeShelfDispatcher(), writingTo: url)
        try first.dispatcher.dispatch(.shelve, payload: "Dune")
        first.stop()
        try manager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)

        let dispatcher = try makeShelfDispatcher()
        let second = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.shelve, payload: "Emma")
        second.stop()

        #expect(try Journal.records(contentsOf: url).map(\.action) == ["journalShelve(Emma)"])
        #expect(try manager.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int == 0o600)
    }

    @Test func theErrorNamesThePathAndWhatAJournalReplaces() {
        let error = JournalError.notReplaceable(path: "/tmp/x", reason: "it is a directory")
        #expect(
            error.description
                == "the journal will not write to /tmp/x: it is a directory; it replaces only an earlier journal, or creates a new file"
        )
    }
}
