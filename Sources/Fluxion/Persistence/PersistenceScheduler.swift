/// When and where a store's debounced saves run.
///
/// A scheduler has a clock (``now``) and runs work after a delay, away from
/// the calling thread. Fluxion asks it for one timer at a time per persistent
/// store and writes the archive from that timer's work, so the work's thread
/// is where saving happens.
///
/// The default, ``DispatchPersistenceScheduler``, runs the work on a private
/// serial `DispatchQueue`. Tests pass a scheduler with a manual clock, whose
/// work runs when the test advances time, so debounce tests need no sleeping.
public protocol PersistenceScheduler: Sendable {
    /// The time now, as a duration since a fixed origin of the scheduler's choice; it never decreases.
    var now: Duration { get }

    /// Runs `work` once, `delay` from now (at once for a zero or negative delay), never on the calling thread before returning.
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void)
}
