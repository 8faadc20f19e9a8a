import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// Writes a journal's steps to a file as JSON Lines, in order, off the dispatching thread.
///
/// The file is a new one, or an earlier journal it replaces (see `openFile(at:)`), readable and
/// writable by its owner only (0600): it holds the users' data the actions carry.
///
/// The lines waiting to be written are written together, with one write (up to `batchSize` bytes).
/// A line that cannot be written is reported to the journal's write-error hook as it happens, and
/// taken back out of the file (cut back to the last whole line); the lines after it are still
/// written, each store's next change with its state before again, so that a replay goes on past the gap.
final class JournalWriter: Sendable {
    private struct Output {
        /// The open file; `nil` once closed.
        var descriptor: Int32?
        /// Where the last whole line ends.
        var length: Int = 0
        /// The stores whose state before their first change is written already.
        var seen: Set<String> = []
        /// The action names warned of a value that cannot be redacted.
        var warned: Set<String> = []
        var error: JournalError?
    }

    let url: URL
    private let redacted: Set<String>
    /// The dispatcher's error types whose errors are recorded as values.
    private let errorTypes: ReplayableErrors
    private let calls: FileSystemCalls
    private let errors: JournalErrorReporter
    private let queue = DispatchQueue(label: "Fluxion.Journal.writer")
    /// Marks the writer's queue: the write-error hook runs on it, and may call `flush()` or `close()`.
    private let queueKey = DispatchSpecificKey<Void>()
    private let output: Guarded<Output>
    /// What was handed over and is not written yet, guarded by the journal's lock.
    private let backlog: Backlog

    /// Opens the file and writes its header.
    ///
    /// - Throws: ``JournalError/notReplaceable(path:reason:)`` for a path that holds anything but an earlier
    ///   journal; ``JournalError/unreadableFile(path:reason:)`` when the file cannot be created or written.
    /// - Parameters:
    ///   - errorTypes: The dispatcher's error types whose errors are recorded as values.
    ///   - lock: The journal's lock, which guards the backlog: the dispatching thread hands a step over while
    ///     it holds it, without a second lock.
    init(
        url: URL, redacting redacted: Set<String>, errorTypes: ReplayableErrors, calls: FileSystemCalls,
        errors: JournalErrorReporter, lock: Lock
    ) throws {
        self.url = url
        backlog = Backlog(lock: lock)
        self.redacted = redacted
        self.errorTypes = errorTypes
        self.calls = calls
        self.errors = errors
        let (descriptor, isNew) = try Self.openFile(at: url)
        output = Guarded(Output(descriptor: descriptor))
        queue.setSpecific(key: queueKey, value: ())
        if let failure = write(JournalLine.header(at: Date(), redacting: redacted)) {
            closeFile(descriptor)
            if isNew { unlink(url.path) }  // NB: the file is the journal's own, created just now
            throw JournalError.unreadableFile(path: url.path, reason: "its header cannot be written: \(failure)")
        }
    }

    /// The first error writing met, if any; the lines after it are still written.
    var error: JournalError? {
        output.withLock { $0.error }
    }

    /// Writes a recorded step; called with the journal's lock held. Returns whether the writer must be woken,
    /// with ``wake()``, once the lock is released.
    func write(_ entry: consuming JournalEntries.Entry) -> Bool {
        backlog.addHoldingLock(.step(entry))
    }

    /// Writes a refusal; called with the journal's lock held. Returns whether the writer must be woken.
    func write(_ refused: JournalRefusal.Entry) -> Bool {
        backlog.addHoldingLock(.refusal(refused))
    }

    /// Wakes the writer's queue to write the backlog.
    func wake() {
        queue.async { [self] in writeBacklog() }
    }

    /// Writes that recording resumed after step `sequence`, with the states the stores had there; called
    /// with the journal's lock held, so that the end of an effect of a step it dropped comes after it.
    /// Returns whether the writer must be woken, with ``wake()``, once the lock is released.
    func writeResume(after sequence: Int, states: [JournalEntries.Change]) -> Bool {
        backlog.addHoldingLock(.resume(after: sequence, states: states, time: Date()))
    }

    /// Writes that an effect of step `sequence` started or ended; `error` is what it threw, if it failed.
    ///
    /// - Parameter isOfDroppedStep: Whether ``Journal/resumeDiscardingLaterSteps()`` dropped the step:
    ///   its end is marked, as a later step may have its number.
    func write(
        _ effect: JournalRecord.Effect, ofStep sequence: Int, error: (any Error)? = nil, isOfDroppedStep: Bool = false
    ) {
        hand(.effect(effect, step: sequence, error: error, isOfDroppedStep: isOfDroppedStep))
    }

    /// Hands a line's content to the writer's queue, which writes the backlog in order; the queue is woken
    /// only when it is idle, so that a burst of steps costs the dispatching thread one wake-up, not one each.
    private func hand(_ item: consuming Backlog.Item) {
        if backlog.add(item) { wake() }
    }

    /// Writes the backlog, in order, until it is empty; on the writer's queue.
    private func writeBacklog() {
        // NB: the items written are given back emptied, so that the next items fill a buffer already made.
        var items = backlog.takeSpare()
        var text: [UInt8] = []
        while backlog.take(into: &items) {
            defer { items.removeAll(keepingCapacity: true) }
            var start = items.startIndex
            while start < items.endIndex {
                start = writeLines(of: items, from: start, into: &text)
            }
        }
    }

    /// Writes the lines of `items` from `start` on, up to about `batchSize` bytes, with one write; returns
    /// where the next batch starts. When the write fails, the lines written whole stay, the line it cut is
    /// taken back out and reported with its step, and the next batch starts after it.
    private func writeLines(of items: [Backlog.Item], from start: Int, into text: inout [UInt8]) -> Int {
        text.removeAll(keepingCapacity: true)
        var ends: [Int] = []
        while start + ends.count < items.endIndex, text.count < Self.batchSize {
            line(of: items[start + ends.count]).line.write(to: &text)
            ends.append(text.count)
        }
        let (failure, whole) = write(text, lineEnds: ends)
        guard let failure else { return start + ends.count }
        // NB: the lines after the one lost are made again: their stores' states before are written again.
        report(failure, step: step(of: items[start + whole]))
        return start + whole + 1
    }

    private func step(of item: Backlog.Item) -> Int {
        switch item {
        case .step(let entry): entry.sequence
        case .resume(let sequence, _, _), .effect(_, let sequence, _, _): sequence
        case .refusal(let refused): refused.afterStep
        }
    }

    /// How many items a backlog's buffer holds before it grows: the writer makes it, so that the dispatching
    /// thread seldom allocates.
    static let backlogCapacity = 256

    /// How many bytes of room a buffer of the backlog may have and still be kept while the writer sleeps:
    /// room for a journal's default capacity of steps (1,000 take about 210 KB, a little more as `malloc`
    /// rounds); the writer does not keep a buffer a bigger burst grew.
    static let keptBacklogBytes = 256 * 1_024

    /// How many bytes of lines are written at once, at most (and one line more).
    static let batchSize = 64 * 1024

    /// The line of an item, and its step; on the writer's queue.
    private func line(of item: Backlog.Item) -> (line: JournalLine, step: Int) {
        switch item {
        case .step(let entry): return (line(of: entry), entry.sequence)
        case .resume(let sequence, let states, let time):
            var line = JournalLine(kind: .resume, sequence: sequence, time: time)
            line.changes = states.map { JournalLine.Change($0, before: false, redacting: redacted) }
            return (line, sequence)
        case .effect(let effect, let sequence, let error, let isOfDroppedStep):
            var line = JournalLine(kind: .effect, sequence: sequence, time: effect.ended ?? effect.started)
            line.effect = JournalLine.EffectEvent(effect)
            if isOfDroppedStep { line.effect?.dropped = true }
            if let error, !redacted.isEmpty {
                line.effect?.error = StateDiff.describe(error, redacting: redacted, qualified: false)
            }
            return (line, sequence)
        case .refusal(let refused):
            let line = warningOfUnredactable { _, unredactable in
                JournalLine(refused, redacting: redacted, errorTypes: errorTypes, unredactable: &unredactable)
            }
            return (line, refused.afterStep)
        }
    }

    /// The line of a recorded step, its stores noted as seen.
    private func line(of entry: JournalEntries.Entry) -> JournalLine {
        warningOfUnredactable { seen, unredactable in
            JournalLine(entry, redacting: redacted, errorTypes: errorTypes, seen: &seen, unredactable: &unredactable)
        }
    }

    /// The line `make` makes, noting in its first argument the stores whose state before it writes, and in
    /// its second the values it left out; warns once per action name of such a value.
    private func warningOfUnredactable(
        _ make: (inout Set<String>, inout [JournalLine.Unredactable]) -> JournalLine
    ) -> JournalLine {
        // NB: the sets are taken out while the line is made, so that adding to them copies nothing.
        var (seen, warned) = output.withLock { output in
            defer { (output.seen, output.warned) = ([], []) }
            return (output.seen, output.warned)
        }
        var unredactable: [JournalLine.Unredactable] = []
        let line = make(&seen, &unredactable)
        var warnings: [JournalError] = []
        for value in unredactable where warned.insert(value.action).inserted {
            let reasons = unredactable.filter { $0.action == value.action }.map(\.reason)
            warnings.append(.notRedactable(action: value.action, reason: reasons.joined(separator: "; ")))
        }
        output.withLock { ($0.seen, $0.warned) = (seen, warned) }
        for warning in warnings { errors.report(warning) }
        return line
    }

    /// Waits until every step handed over so far is in the file, or reported as not written; at once when
    /// called from the write-error hook, on the writer's queue.
    func flush() {
        guard !isOnQueue else { return }
        queue.sync {}
    }

    /// Flushes and closes the file; a failure to flush it to the disk is reported.
    func close() {
        guard !isOnQueue else { return closeOnQueue() }
        queue.sync { closeOnQueue() }
    }

    private var isOnQueue: Bool {
        DispatchQueue.getSpecific(key: queueKey) != nil
    }

    private func closeOnQueue() {
        let descriptor = output.withLock { output in
            defer { output.descriptor = nil }
            return output.descriptor
        }
        guard let descriptor else { return }
        if calls.fsync(descriptor) != 0 {
            errors.report(.unreadableFile(path: url.path, reason: "it cannot be flushed to disk: \(Self.reason())"))
        }
        closeFile(descriptor)
    }

    /// Reports that the line of step `step` was not written, and why; on the writer's queue.
    private func report(_ reason: String, step: Int) {
        let error = JournalError.writeFailed(path: url.path, step: step, reason: reason)
        output.withLock { output in
            output.error = output.error ?? error
            // NB: the stores first seen in a line that was lost have their state before written again.
            output.seen = []
        }
        errors.report(error)
    }

    /// Writes a whole line, or, failing, cuts the file back to the last whole line; returns why it failed.
    private func write(_ line: JournalLine) -> String? {
        let text = line.encoded()
        return write(text, lineEnds: [text.count]).failure
    }

    /// Writes whole lines, which end at `lineEnds` in `text`; failing, cuts the file back to the last line
    /// written whole. Returns why it failed, and how many lines were written whole.
    private func write(_ text: [UInt8], lineEnds: [Int]) -> (failure: String?, whole: Int) {
        output.withLock { output -> (String?, Int) in
            guard let descriptor = output.descriptor else { return (nil, lineEnds.count) }
            var written = 0
            let failure = text.withUnsafeBytes { bytes -> String? in
                guard let base = bytes.baseAddress else { return nil }
                while written < bytes.count {
                    let count = calls.write(descriptor, base + written, bytes.count - written)
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { return count == 0 ? "nothing could be written" : Self.reason() }
                    written += count
                }
                return nil
            }
            guard let failure else {
                output.length += written
                return (nil, lineEnds.count)
            }
            let whole = lineEnds.firstIndex { $0 > written } ?? lineEnds.count
            let kept = whole > 0 ? lineEnds[whole - 1] : 0
            if written > kept {
                _ = ftruncate(descriptor, off_t(output.length + kept))
                _ = lseek(descriptor, off_t(output.length + kept), SEEK_SET)
            }
            output.length += kept
            return (failure, whole)
        }
    }

    /// The system's description of `errno`.
    static func reason() -> String {
        String(cString: strerror(errno))
    }
}

/// `close(2)`, under a name no method shadows.
func closeFile(_ descriptor: Int32) {
    _ = close(descriptor)
}
