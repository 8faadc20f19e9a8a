import Foundation

/// Writes a journal's steps to a file as JSON Lines, in order, off the dispatching thread.
///
/// The file is created anew, readable and writable by its owner only (0600):
/// it holds the users' data the actions carry.
final class JournalWriter: Sendable {
    private struct Output {
        var handle: FileHandle?
        /// The stores whose state before their first change is written already.
        var seen: Set<String> = []
        var error: JournalError?
    }

    let url: URL
    private let redacted: Set<String>
    private let queue = DispatchQueue(label: "Fluxion.Journal.writer")
    private let output: Guarded<Output>

    init(url: URL, redacting redacted: Set<String>) throws {
        self.url = url
        self.redacted = redacted
        let manager = FileManager.default
        try? manager.removeItem(at: url)
        guard manager.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = try? FileHandle(forWritingTo: url)
        else {
            throw JournalError.unreadableFile(path: url.path, reason: "it cannot be created")
        }
        output = Guarded(Output(handle: handle))
        append(JournalLine.header(at: Date(), redacting: redacted))
    }

    /// The first error writing met, if any; writing stops there.
    var error: JournalError? {
        output.withLock { $0.error }
    }

    /// Writes a recorded step.
    func write(_ entry: JournalEntries.Entry) {
        queue.async { [self] in
            var seen = output.withLock { $0.seen }
            let line = JournalLine(entry, redacting: redacted, seen: &seen)
            output.withLock { $0.seen = seen }
            append(line)
        }
    }

    /// Writes that recording resumed after step `sequence`, with the states the stores had there.
    func writeResume(after sequence: Int, states: [JournalEntries.Change]) {
        queue.async { [self] in
            var line = JournalLine(kind: .resume, sequence: sequence, time: Date())
            line.changes = states.map { JournalLine.Change($0, before: false, redacting: redacted) }
            append(line)
        }
    }

    /// Writes that an effect of step `sequence` started or ended.
    func write(_ effect: JournalRecord.Effect, ofStep sequence: Int) {
        queue.async { [self] in
            var line = JournalLine(kind: .effect, sequence: sequence, time: effect.ended ?? effect.started)
            line.effect = JournalLine.EffectEvent(effect)
            append(line)
        }
    }

    /// Waits until every step handed over so far is in the file.
    func flush() {
        queue.sync {}
    }

    /// Flushes and closes the file.
    func close() {
        queue.sync {
            let handle = output.withLock { output in
                defer { output.handle = nil }
                return output.handle
            }
            try? handle?.synchronize()
            try? handle?.close()
        }
    }

    private func append(_ line: JournalLine) {
        output.withLock { output in
            guard output.error == nil, let handle = output.handle else { return }
            do {
                try handle.write(contentsOf: line.encoded())
            } catch {
                output.error = .unreadableFile(path: url.path, reason: "\(error)")
            }
        }
    }
}
