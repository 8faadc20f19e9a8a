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

    /// The steps and refusals in memory as a journal file's text, times to the microsecond; see ``lines()``.
    package func linesInMemory() -> String {
        let encoder = JSONValue.encoder
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(JournalLine.iso8601(date))
        }
        return lines().compactMap { line in
            (try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) + "\n" }
        }.joined()
    }

    /// The steps and refusals in memory as a journal file's lines: each refusal after the step it followed,
    /// each effect's start and end placed among the steps by time.
    func lines() -> [JournalLine] {
        let (entries, refused) = contents.withLock { ($0.entries.all, $0.refusals) }
        let errorTypes = dispatcher.replayableErrors
        var lines = [JournalLine.header(at: entries.first?.time ?? Date(), redacting: [])]
        var seen: Set<String> = []
        var pending: [JournalLine] = []
        var refusals = refused.map { JournalLine($0, redacting: [], errorTypes: errorTypes) }[...]
        let byTime = { (first: JournalLine, second: JournalLine) in
            (first.time ?? .distantPast) < (second.time ?? .distantPast)
        }
        for entry in entries {
            pending.sort(by: byTime)
            while let first = pending.first, (first.time ?? .distantPast) < entry.time {
                lines.append(pending.removeFirst())
            }
            while let refusal = refusals.first, (refusal.sequence ?? 0) < entry.sequence {
                lines.append(refusals.removeFirst())
            }
            lines.append(JournalLine(entry, redacting: [], errorTypes: errorTypes, seen: &seen))
            pending += JournalLine.effectLines(of: entry)
        }
        return lines + refusals + pending.sorted(by: byTime)
    }
}
