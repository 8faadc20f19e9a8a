import Fluxion
import FluxionInspector
import Foundation
import Testing

/// Writing the viewer's page: for its owner only, and over nothing but an earlier page.
@Suite(.timeLimit(.minutes(10))) struct JournalViewerFileTests {
    @Test func writesThePageForItsOwnerOnly() throws {
        let journal = try Journal(recording: makeShelfDispatcher())
        let url = temporaryURL(".html")
        defer { try? FileManager.default.removeItem(at: url) }

        try journal.writeViewer(to: url)

        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let page = try String(contentsOf: url, encoding: .utf8)
        #expect(page.hasPrefix("<!doctype html>") && page.hasSuffix("</html>"))
    }

    @Test func writingAPageReplacesOnlyAnEarlierPage() throws {
        let journal = try Journal(recording: makeShelfDispatcher())
        let folder = temporaryURL("")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("session.html")
        let notes = folder.appendingPathComponent("notes.txt")
        let link = folder.appendingPathComponent("link.html")
        try Data("keep me".utf8).write(to: notes)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: notes)

        try journal.writeViewer(to: page)
        try journal.writeViewer(to: page)  // an earlier page is replaced

        #expect(throws: JournalError.notReplaceable(path: folder.path, reason: "it is not a file")) {
            try journal.writeViewer(to: folder)
        }
        #expect(throws: JournalError.notReplaceable(path: link.path, reason: "it is not a file")) {
            try journal.writeViewer(to: link)
        }
        let reason = "it is not a page of the journal viewer"
        #expect(throws: JournalError.notReplaceable(path: notes.path, reason: reason)) {
            try journal.writeViewer(to: notes)
        }
        #expect(try String(contentsOf: notes, encoding: .utf8) == "keep me")
        #expect(FileManager.default.fileExists(atPath: page.path))
        let listed = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(listed == ["link.html", "notes.txt", "session.html"])
    }

    @Test func aPageThatCannotBeCreatedIsAnError() throws {
        let journal = try Journal(recording: makeShelfDispatcher())
        let url = temporaryURL("").appendingPathComponent("no-such-folder/session.html")

        #expect(throws: JournalError.unreadableFile(path: url.path, reason: "it cannot be created")) {
            try journal.writeViewer(to: url)
        }
    }

    @Test func writesThePageOfAFile() throws {
        let journalURL = temporaryURL()
        let pageURL = temporaryURL(".html")
        defer { for url in [journalURL, pageURL] { try? FileManager.default.removeItem(at: url) } }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: journalURL)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        journal.stop()

        try Journal.writeViewer(contentsOf: journalURL, to: pageURL)

        #expect(try String(contentsOf: pageURL, encoding: .utf8) == Journal.viewer(contentsOf: journalURL))
    }
}
