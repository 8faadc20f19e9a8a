/// How an observer makes sure, before each call, that it was not cancelled: without a lock when it can.
///
/// A cancellation sets the observer's flag under its list's lock and advances
/// that lock's generation. A delivery notes the generation when it copies the
/// list: while the generation has not moved, no observer of the list was
/// cancelled since, and each observer is called without locking. Once it has
/// moved, each check reads the flag under the lock. Either way, no delivery
/// that checks an observer after its `cancel()` has returned calls it.
///
/// NB: a check and the call after it are two steps, with no lock between:
/// a cancel on another thread can return between them, and the call still
/// runs. Closing that gap would take an atomic exchange per observer call
/// (a delivery publishing the observer it calls, for the cancel to wait
/// on), measured at about 45 ns per dispatch in W2, and a cancel that waits
/// for a call could deadlock with it (an observer that waits for the main
/// thread, cancelled on the main thread). The documentation of
/// `ObservationHandle` says what holds instead.
@usableFromInline
struct CancellationCheck {
    /// The lock of the observer list, which guards each observer's flag.
    let lock: Lock
    /// The lock's generation when the list was copied; `nil` reads every flag under the lock.
    let generation: UInt64?

    @usableFromInline
    init(lock: Lock, generation: UInt64?) {
        self.lock = lock
        self.generation = generation
    }

    /// Whether an observer whose flag `isCancelled` reads may be called now.
    ///
    /// - Parameter isCancelled: Reads the observer's flag; called under the lock, if at all.
    func allowsCall(_ isCancelled: () -> Bool) -> Bool {
        if let generation, lock.generation == generation { return true }
        return !lock.withLock(isCancelled)
    }
}
