import CFluxionAtomics

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A mutex over `pthread_mutex_t`, optionally with a condition variable to wait on.
///
/// Fluxion's one lock type. It is used instead of `Synchronization.Mutex`
/// because it works on every Apple OS version Fluxion supports and because
/// ThreadSanitizer instruments it fully on Linux.
@usableFromInline
final class Lock: @unchecked Sendable {  // the pthread objects are thread-safe; `waiters` is guarded by `mutex`
    @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition: UnsafeMutablePointer<pthread_cond_t>?
    /// How many threads are in ``wait()``, so that ``broadcast()`` costs nothing when none is.
    private var waiters = 0
    /// A `fluxion_counter`: ``generation``.
    private let counter: UnsafeMutableRawPointer

    /// Creates a lock; with `waitable`, also a condition for ``wait()`` and ``broadcast()``.
    @usableFromInline
    init(waitable: Bool = false) {
        pthread_mutex_init(mutex, nil)
        condition = waitable ? .allocate(capacity: 1) : nil
        if let condition { pthread_cond_init(condition, nil) }
        let counter = UnsafeMutablePointer<fluxion_counter>.allocate(capacity: 1)
        fluxion_counter_init(counter)
        self.counter = UnsafeMutableRawPointer(counter)
    }

    deinit {
        if let condition {
            pthread_cond_destroy(condition)
            condition.deallocate()
        }
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        counter.deallocate()
    }

    /// How many times ``advanceGeneration()`` was called; readable without the lock, from any thread.
    ///
    /// What was written under the lock before an advance is visible to a
    /// thread that reads the advanced generation.
    @usableFromInline
    var generation: UInt64 {
        fluxion_counter_load(counter.assumingMemoryBound(to: fluxion_counter.self))
    }

    /// Advances ``generation``: call with the lock held, after a change that readers check without it.
    func advanceGeneration() {
        fluxion_counter_advance(counter.assumingMemoryBound(to: fluxion_counter.self))
    }

    @inlinable
    func lock() {
        pthread_mutex_lock(mutex)
    }

    @inlinable
    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    @inlinable
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits until another thread calls ``broadcast()``; call it with the lock held, on a waitable lock.
    func wait() {
        guard let condition else { return }
        waiters += 1
        pthread_cond_wait(condition, mutex)
        waiters -= 1
    }

    /// Wakes every thread waiting in ``wait()``; call it with the lock held.
    @usableFromInline
    func broadcast() {
        if waiters > 0, let condition { pthread_cond_broadcast(condition) }
    }
}

/// The identity of the calling thread, comparable with `==`.
@usableFromInline
struct ThreadID: Equatable, Sendable {
    @usableFromInline let raw: UInt

    @usableFromInline
    init(raw: UInt) {
        self.raw = raw
    }

    @inlinable
    static var current: ThreadID {
        #if canImport(Darwin)
        ThreadID(raw: UInt(bitPattern: pthread_self()))
        #else
        ThreadID(raw: UInt(pthread_self()))
        #endif
    }
}
