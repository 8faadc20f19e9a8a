import Fluxion
import Foundation

/// Writing a viewer's page: owner-only, and only over an earlier page.
enum JournalViewerFile {
    /// Writes a page, owner-only (0600): it holds the users' data that the journal holds.
    ///
    /// It creates the page where nothing exists, or replaces an earlier page of the viewer; anything
    /// else at the path — a directory, a link, another file — is left untouched.
    static func write(_ page: String, to url: URL) throws {
        let manager = FileManager.default
        if let attributes = try? manager.attributesOfItem(atPath: url.path) {
            // NB: `attributesOfItem` does not follow a final symbolic link: a link is refused as it is.
            guard attributes[.type] as? FileAttributeType == .typeRegular else {
                throw JournalError.notReplaceable(path: url.path, reason: "it is not a file")
            }
            guard let handle = FileHandle(forReadingAtPath: url.path),
                let head = try? handle.read(upToCount: 4_096), (try? handle.close()) != nil,
                String(decoding: head, as: UTF8.self).contains(JournalViewerPage.generatorMark)
            else {
                throw JournalError.notReplaceable(path: url.path, reason: "it is not a page of the journal viewer")
            }
            try? manager.removeItem(at: url)
        }
        guard manager.createFile(atPath: url.path, contents: Data(page.utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw JournalError.unreadableFile(path: url.path, reason: "it cannot be created")
        }
    }
}
