import Fluxion
import Foundation

/// The viewer: a journal as one self-contained HTML page, to open in a browser from a file.
extension Journal {
    /// A page that shows the steps the journal recorded: one self-contained HTML file to open in a browser.
    ///
    /// ```swift
    /// import FluxionInspector
    ///
    /// let html = journal.viewer()
    /// ```
    ///
    /// The page lists every step with its time, action, payload, error and
    /// cause; draws the effects' lifetimes on a time axis; and shows, for the
    /// step selected, the diff of each store it changed and the state of every
    /// store after it. It filters by store and action, searches, and steps
    /// back and forth with the keyboard. It needs no network: its styles and
    /// script are inline, and it can also open any journal file the user picks.
    ///
    /// A journal that writes a file shows the file, once every step is
    /// written: every step it recorded, with the values of its
    /// `redactingKeys` hidden, as ``Fluxion/Journal/viewer(contentsOf:)`` does. A journal
    /// without a file shows the steps in memory. Either way the times are
    /// to the microsecond, and the page draws the effects on a time axis; a
    /// file written by an earlier Fluxion, which kept whole seconds, is drawn
    /// in step order instead.
    ///
    /// - Returns: The HTML text of the page.
    public func viewer() -> String {
        if let url = fileURL {
            flush()
            // NB: the file, not memory: it holds what `redactingKeys` lets out, and the steps memory forgot.
            if let page = try? Self.viewer(contentsOf: url) { return page }
        }
        return JournalViewerPage.html(embedding: Data(linesInMemory().utf8), name: "journal in memory")
    }

    /// Writes ``Fluxion/Journal/viewer()`` to `url`, readable and writable by its owner only, as the journal
    /// file is.
    ///
    /// ```swift
    /// import FluxionInspector
    ///
    /// try journal.writeViewer(to: URL(fileURLWithPath: "session.html"))
    /// ```
    ///
    /// It creates the page where nothing exists, or replaces an earlier page of the viewer; anything
    /// else at `url` is left untouched.
    ///
    /// - Throws: `JournalError.notReplaceable(path:reason:)` when `url` names a directory, a link or a
    ///   file that is not a viewer page; `JournalError.unreadableFile(path:reason:)` when the file
    ///   cannot be written.
    public func writeViewer(to url: URL) throws {
        try JournalViewerFile.write(viewer(), to: url)
    }

    /// A page that shows the journal file at `url`: see ``Fluxion/Journal/viewer()``.
    ///
    /// ```swift
    /// import FluxionInspector
    ///
    /// let html = try Journal.viewer(contentsOf: sessionURL)
    /// ```
    ///
    /// The file's lines are embedded as they are; a line the page cannot read
    /// (one cut short when the app stopped) is named on the page and skipped.
    ///
    /// - Throws: `JournalError` when the file cannot be read or does not start with a journal's header.
    public static func viewer(contentsOf url: URL) throws -> String {
        JournalViewerPage.html(embedding: try contentsOfFile(at: url), name: url.lastPathComponent)
    }

    /// Writes the page of the journal file at `journal` to `url`: see ``Fluxion/Journal/viewer(contentsOf:)``.
    ///
    /// ```swift
    /// import FluxionInspector
    ///
    /// try Journal.writeViewer(contentsOf: sessionURL, to: URL(fileURLWithPath: "session.html"))
    /// ```
    ///
    /// - Throws: `JournalError` when the journal cannot be read, or the page cannot be written.
    public static func writeViewer(contentsOf journal: URL, to url: URL) throws {
        try JournalViewerFile.write(viewer(contentsOf: journal), to: url)
    }
}
