/// One dispatcher's ownership of one archive location, from its claim to its release.
///
/// The dispatcher's archivers read and write the location only inside
/// ``whileHeld(_:)``; ``release()`` waits for the one under way, then gives
/// the location up, so that nothing of this dispatcher reaches the location
/// once another may own it. A dispatcher releases its leases in `shutdown()`
/// and when it is freed; a lease freed unreleased releases itself.
final class ArchiveLease: @unchecked Sendable {  // `isReleased`, `uses` and `descriptor` guarded by `lock`
    let location: ArchiveLocation
    private let lock = Lock(waitable: true)
    private var isReleased = false
    /// How many reads and writes are under way.
    private var uses = 0
    /// The lock file's descriptor, which holds its `flock`; -1 for a location without one.
    private var descriptor: Int32

    /// A lease on `location`, whose lock file `descriptor` holds (-1: none); see `ArchiveOwnership.claim(_:)`.
    init(_ location: ArchiveLocation, descriptor: Int32) {
        self.location = location
        self.descriptor = descriptor
    }

    deinit {
        release()
    }

    /// Whether the location is still this lease's.
    var isHeld: Bool {
        lock.withLock { !isReleased }
    }

    /// Runs `body`, which reads or writes the location, unless the lease was released: then `nil`.
    ///
    /// Uses of one lease run at once; a release waits for them.
    func whileHeld<Value>(_ body: () throws -> Value) rethrows -> Value? {
        let isHeld = lock.withLock {
            if !isReleased { uses += 1 }
            return !isReleased
        }
        guard isHeld else { return nil }
        defer {
            lock.withLock {
                uses -= 1
                if uses == 0 { lock.broadcast() }
            }
        }
        return try body()
    }

    /// Gives the location up, once the reads and writes under way have ended; later uses are refused.
    func release() {
        lock.lock()
        guard !isReleased else { return lock.unlock() }
        isReleased = true
        while uses > 0 { lock.wait() }
        let descriptor = self.descriptor
        self.descriptor = -1
        lock.unlock()
        ArchiveOwnership.release(location, closing: descriptor)
    }
}
