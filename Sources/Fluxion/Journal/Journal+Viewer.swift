import Foundation

// The viewer: a journal as one self-contained HTML page, to open in a browser from a file.
extension Journal {
    /// A page that shows the steps the journal recorded: one self-contained HTML file to open in a browser.
    ///
    /// ```swift
    /// try journal.writeViewer(to: URL(fileURLWithPath: "session.html"))
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
    /// `redactingKeys` hidden, as ``viewer(contentsOf:)`` does. A journal
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

    /// Writes ``viewer()`` to `url`, readable and writable by its owner only, as the journal file is.
    ///
    /// It creates the page where nothing exists, or replaces an earlier page of the viewer; anything
    /// else at `url` is left untouched.
    ///
    /// - Throws: ``JournalError/notReplaceable(path:reason:)`` when `url` names a directory, a link or a
    ///   file that is not a viewer page; ``JournalError/unreadableFile(path:reason:)`` when the file
    ///   cannot be written.
    public func writeViewer(to url: URL) throws {
        try Self.write(viewer(), to: url)
    }

    /// A page that shows the journal file at `url`: see ``viewer()``.
    ///
    /// ```swift
    /// let html = try Journal.viewer(contentsOf: sessionURL)
    /// ```
    ///
    /// The file's lines are embedded as they are; a line the page cannot read
    /// (one cut short when the app stopped) is named on the page and skipped.
    ///
    /// - Throws: ``JournalError`` when the file cannot be read or does not start with a journal's header.
    public static func viewer(contentsOf url: URL) throws -> String {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let exists = FileManager.default.fileExists(atPath: url.path)
            throw JournalError.unreadableFile(path: url.path, reason: exists ? "\(error)" : "there is no such file")
        }
        let firstLine = data.prefix { $0 != UInt8(ascii: "\n") }
        guard let header = String(data: firstLine, encoding: .utf8) else {
            throw JournalError.notAJournal(path: url.path, reason: "it is not UTF-8 text")
        }
        try JournalReplayer.checkHeader(of: JournalLine.decode(header), path: url.path)
        return JournalViewerPage.html(embedding: data, name: url.lastPathComponent)
    }

    /// Writes the page of the journal file at `journal` to `url`: see ``viewer(contentsOf:)``.
    ///
    /// - Throws: ``JournalError`` when the journal cannot be read, or the page cannot be written.
    public static func writeViewer(contentsOf journal: URL, to url: URL) throws {
        try write(viewer(contentsOf: journal), to: url)
    }

    /// Writes a page, owner-only (0600): it holds the users' data that the journal holds.
    ///
    /// It creates the page where nothing exists, or replaces an earlier page of the viewer; anything
    /// else at the path — a directory, a link, another file — is left untouched.
    private static func write(_ page: String, to url: URL) throws {
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

    /// The steps in memory as a journal file's lines, times to the microsecond, each effect's start and end
    /// placed among the steps by time.
    func linesInMemory() -> String {
        let entries = contents.withLock { $0.entries.all }
        let encoder = JSONValue.encoder
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(JournalLine.iso8601(date))
        }
        var text = ""
        func append(_ line: JournalLine) {
            guard let data = try? encoder.encode(line) else { return }
            text += String(decoding: data, as: UTF8.self) + "\n"
        }
        append(JournalLine.header(at: entries.first?.time ?? Date(), redacting: []))
        var seen: Set<String> = []
        var pending: [JournalLine] = []
        for entry in entries {
            pending.sort { ($0.time ?? .distantPast) < ($1.time ?? .distantPast) }
            while let first = pending.first, (first.time ?? .distantPast) < entry.time {
                append(pending.removeFirst())
            }
            append(JournalLine(entry, redacting: [], errorTypes: dispatcher.replayableErrors, seen: &seen))
            pending += JournalLine.effectLines(of: entry)
        }
        pending.sort { ($0.time ?? .distantPast) < ($1.time ?? .distantPast) }
        pending.forEach(append)
        return text
    }
}
