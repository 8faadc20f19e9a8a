import Fluxion
import Foundation
import TodoCore

/// Prints persistence errors as they are reported, each once, and remembers whether a save failed.
///
/// Fluxion reports on the thread that restored or saved, so this is shared
/// between threads.
final class PersistenceReporter: @unchecked Sendable {  // `messages` and `saveFailed` locked by `lock`
    private let file: TodoFile
    private let lock = NSLock()
    private var messages: Set<String> = []
    private var saveFailed = false

    init(file: TodoFile) {
        self.file = file
    }

    /// Whether a save failed: the state on disk may be older than the one shown.
    var hasSaveFailed: Bool {
        lock.withLock { saveFailed }
    }

    func report(_ error: PersistenceError) {
        let message = PersistenceMessage.text(for: error, file: file)
        let isNew = lock.withLock {
            if case .saveFailed = error { saveFailed = true }
            return messages.insert(message).inserted
        }
        if isNew { Console.error(message) }
    }
}
