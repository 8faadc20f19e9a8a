import Foundation

// A journal's lines for tools that show them (FluxionInspector): `package`, not for apps.
extension Journal {
    /// The version of the journal file format this Fluxion writes, and the newest it reads.
    package static var fileFormatVersion: Int { JournalLine.version }

    /// The bytes of the journal file at `url`, as they are, once its first line is found to be a journal's
    /// header (the lines after it are not read: a tool shows a corrupt line rather than refuse the file).
    ///
    /// - Throws: ``JournalError/unreadableFile(path:reason:)`` when the file cannot be read;
    ///   ``JournalError/notAJournal(path:reason:)`` when it does not start with a journal's header, or
    ///   has a newer version.
    package static func contentsOfFile(at url: URL) throws -> Data {
        let data = try bytes(of: url)
        let firstLine = data.prefix { $0 != UInt8(ascii: "\n") }
        guard let header = String(data: firstLine, encoding: .utf8) else {
            throw JournalError.notAJournal(path: url.path, reason: "it is not UTF-8 text")
        }
        try JournalReplayer.checkHeader(of: JournalLine.decode(header), path: url.path)
        return data
    }

    /// The steps in memory as a journal file's lines, times to the microsecond, each effect's start and end
    /// placed among the steps by time.
    package func linesInMemory() -> String {
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
