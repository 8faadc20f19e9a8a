import Foundation

// Errors writing a journal's file: each reaches a hook as it happens, and writing goes on.
extension Journal {
    /// Called with each error writing the journal file, as it happens; while `nil`, each is written to
    /// standard error as a line `Fluxion: DESCRIPTION`.
    ///
    /// ```swift
    /// let journal = try Journal(recording: dispatcher, writingTo: sessionURL, redactingKeys: ["password"])
    /// journal.onWriteError = { error in logger.warning("\(error)") }
    /// ```
    ///
    /// It hears a ``JournalError/writeFailed(path:step:reason:)`` for each
    /// line that could not be written (a full disk, a file system gone
    /// read-only), on the journal's writing thread, before ``flush()``
    /// returns. A line cut short is taken back out of the file, and writing
    /// goes on with the next step: its line, and the line of each store's
    /// next change, carry the states before again, so that the file still
    /// replays, past the gap, to where the session ended. The step that was
    /// lost stays in memory, in ``records``. ``fileError`` keeps the first.
    ///
    /// It also hears, once per action name, a
    /// ``JournalError/notRedactable(action:reason:)`` when `redactingKeys` are
    /// set and a step's payload or state is not `Codable`: that value is left
    /// out of the file, and the step does not replay.
    ///
    /// Set it right after creating the journal: an error met before goes to
    /// standard error. The hook runs with no Fluxion lock held; it may call
    /// ``stop()`` (the file is closed at once) or ``flush()`` (which then
    /// returns at once: the hook runs on the thread it would wait for).
    public var onWriteError: (@Sendable (JournalError) -> Void)? {
        get { errors.handler }
        set { errors.handler = newValue }
    }
}

/// Delivers a journal's write errors to ``Journal/onWriteError``, or to standard error when it is not set.
final class JournalErrorReporter: Sendable {
    private let stored = Guarded<(@Sendable (JournalError) -> Void)?>(nil)

    var handler: (@Sendable (JournalError) -> Void)? {
        get { stored.withLock { $0 } }
        set {
            var handler = newValue
            stored.withLock { swap(&handler, &$0) }
            // NB: the replaced closure is released here, outside the lock: its captures may have a deinit.
        }
    }

    /// Hands `error` to the hook, or to standard error; called on the writer's queue, with no lock held.
    func report(_ error: JournalError) {
        if let handler {
            handler(error)
        } else {
            FileHandle.standardError.write(Data("Fluxion: \(error)\n".utf8))
        }
    }
}
