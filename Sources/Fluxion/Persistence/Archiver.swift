import Foundation

/// A persistent store's archivist: restores its state, and saves it after changes, debounced.
///
/// The store's observer hands each new state to ``scheduleSave(of:)``, on the
/// dispatching thread; that only notes the state and, when no timer is
/// running, starts one. Encoding and writing happen in ``writePending()``,
/// called by the timer on the scheduler's thread or by a flush, never by a
/// dispatch. One write at a time: a flush waits for a write under way, then
/// writes what is newer, so a change made during a write is saved after it.
///
/// It reads and writes the storage only while its dispatcher owns the
/// storage's location (its ``ArchiveLease``): once the dispatcher released it,
/// a save is dropped and reported as ``PersistenceError/locationReleased(key:location:)``.
final class Archiver<State: Codable & Sendable>: PendingWriter, @unchecked Sendable {  // vars guarded by `lock`
    let key: String
    private let configuration: Persistence<State>
    private let reporter: PersistenceErrorReporter
    /// The dispatcher's ownership of the storage's location; `nil` for a storage with no location.
    private let lease: ArchiveLease?
    private let lock = Lock(waitable: true)
    /// The newest state not written yet.
    private var pending: State?
    /// When the pending state may be written: `debounce` after the last change.
    private var deadline = Duration.zero
    /// When the oldest change not written yet was recorded.
    private var firstUnsavedAt = Duration.zero
    private var isTimerScheduled = false
    private var isWriting = false
    /// Reads the store's state now; `nil` once the store is gone.
    private let readState: @Sendable () -> State?

    init(
        _ configuration: Persistence<State>, lease: ArchiveLease?, reporter: PersistenceErrorReporter,
        readState: @escaping @Sendable () -> State?
    ) {
        self.readState = readState
        self.lease = lease
        key = configuration.key
        self.configuration = configuration
        self.reporter = reporter
    }

    /// Reads the archive: the state to start from, or `nil` to keep the initial state.
    ///
    /// An archive that cannot be restored is set aside and reported; one whose location the dispatcher
    /// released is not read.
    func restore() -> State? {
        guard let lease else { return restoreHeld() }
        guard let restored = lease.whileHeld(restoreHeld) else {
            reporter.report(.locationReleased(key: key, location: lease.location.description))
            return nil
        }
        return restored
    }

    /// ``restore()``, while the location is the dispatcher's.
    private func restoreHeld() -> State? {
        let data: Data
        do {
            guard let loaded = try configuration.storage.load(key: key) else { return nil }
            data = loaded
        } catch {
            setAside { .loadFailed(key: key, setAsideAs: $0, reason: describe(error)) }
            return nil
        }
        switch ArchiveFormat.decode(data, as: configuration) {
        case .success(let restored):
            // NB: a migrated archive is rewritten in the current version at the next save.
            if restored.isMigrated { scheduleSave(of: restored.state) }
            return restored.state
        case .failure(.corrupt(let reason)):
            setAside { .corruptArchive(key: key, setAsideAs: $0, reason: reason) }
        case .failure(.newerVersion(let found)):
            setAside { .newerVersion(key: key, found: found, supported: configuration.version, setAsideAs: $0) }
        case .failure(.migrationFailed(let from, let reason)):
            setAside {
                .migrationFailed(key: key, from: from, to: configuration.version, setAsideAs: $0, reason: reason)
            }
        }
        return nil
    }

    /// Sets the archive aside and reports `error`, then the set-aside failure if there is one.
    private func setAside(reporting error: (String?) -> PersistenceError) {
        let suffix = ".corrupt-" + archiveTimestamp()
        do {
            reporter.report(error(try configuration.storage.setAside(key: key, suffix: suffix)))
        } catch let failure {
            reporter.report(error(nil))
            reporter.report(.setAsideFailed(key: key, reason: describe(failure)))
        }
    }

    /// Notes a new state to save, and starts the debounce timer if none is running.
    func scheduleSave(of state: State) {
        let now = configuration.scheduler.now
        var replaced: State? = state
        lock.lock()
        swap(&pending, &replaced)
        if replaced == nil { firstUnsavedAt = now }
        // NB: quiet for `debounce`, but never later than five intervals after the first unsaved change.
        deadline = min(now + configuration.debounce, firstUnsavedAt + configuration.debounce * 5)
        let startsTimer = !isTimerScheduled
        isTimerScheduled = true
        lock.unlock()
        // NB: the replaced state is released here, outside the lock: it may hold objects with a deinit.
        withExtendedLifetime(replaced) {}
        if startsTimer { scheduleTimer(after: configuration.debounce) }
    }

    private func scheduleTimer(after delay: Duration) {
        configuration.scheduler.schedule(after: delay) { [self] in timerFired() }
    }

    /// Writes the pending state if the state has been quiet for the debounce interval, or waits longer.
    private func timerFired() {
        let now = configuration.scheduler.now
        lock.lock()
        if pending != nil, now < deadline {
            let delay = deadline - now
            lock.unlock()
            scheduleTimer(after: delay)
            return
        }
        isTimerScheduled = false
        lock.unlock()
        writePending()
    }

    /// Writes the pending state now, after any write under way; returns once written.
    func writePending() {
        lock.lock()
        while isWriting { lock.wait() }
        guard let state = pending.take() else {
            lock.unlock()
            return
        }
        isWriting = true
        lock.unlock()

        var failure: PersistenceError?
        var isRefused = false
        do {
            let data = try ArchiveFormat.encode(state, version: configuration.version)
            let save = { try self.configuration.storage.save(data, key: self.key) }
            if let lease {
                isRefused = try lease.whileHeld(save) == nil
                if isRefused { failure = .locationReleased(key: key, location: lease.location.description) }
            } else {
                try save()
            }
        } catch {
            failure = .saveFailed(key: key, reason: describe(error))
        }

        lock.lock()
        isWriting = false
        // NB: a failed state stays pending, unless a newer one came meanwhile, so the next save retries it;
        // a refused one never could be written.
        let isRetried = failure != nil && !isRefused && pending == nil
        if isRetried { pending = state }
        lock.broadcast()
        lock.unlock()
        // NB: reported after the write has ended, so the hook may flush or dispatch.
        if let failure { reporter.report(failure) }
    }
}

extension Archiver {
    /// Notes the store's state now to save, as if it had just changed.
    func scheduleSaveOfCurrentState() {
        if let state = readState() { scheduleSave(of: state) }
    }
}

/// An archiver with its state type erased, as the dispatcher's list holds it.
protocol PendingWriter: AnyObject, Sendable {
    var key: String { get }
    func writePending()
    func scheduleSaveOfCurrentState()
}

/// The current UTC time as `20250102T030405.678Z`: sortable, and a valid file name everywhere.
func archiveTimestamp(_ date: Date = Date()) -> String {
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    var seconds = time_t(milliseconds / 1000)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return String(
        format: "%04d%02d%02dT%02d%02d%02d.%03dZ",
        Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
        Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(milliseconds % 1000)
    )
}
