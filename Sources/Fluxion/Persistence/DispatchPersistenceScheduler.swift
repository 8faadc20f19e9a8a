import Dispatch

/// A scheduler that runs saves on its own serial `DispatchQueue`, with the system's monotonic clock.
///
/// Each ``Persistence`` configuration made with the default scheduler gets
/// its own instance, so a slow storage delays only its own store's saves.
public struct DispatchPersistenceScheduler: PersistenceScheduler {
    /// The serial queue the saves run on.
    public let queue: DispatchQueue

    /// Creates a scheduler with a new serial queue.
    ///
    /// - Parameter qos: The quality of service of the saves; `.utility` by default.
    public init(qos: DispatchQoS = .utility) {
        queue = DispatchQueue(label: "Fluxion.persistence", qos: qos)
    }

    /// The time since the system booted, as `DispatchTime` counts it.
    public var now: Duration {
        .nanoseconds(DispatchTime.now().uptimeNanoseconds)
    }

    /// Runs `work` on ``queue`` after `delay`.
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let start = DispatchTime.now().uptimeNanoseconds
        let (deadline, overflow) = start.addingReportingOverflow(saturatingNanoseconds(delay))
        queue.asyncAfter(deadline: overflow ? .distantFuture : DispatchTime(uptimeNanoseconds: deadline), execute: work)
    }
}

/// `duration` in whole nanoseconds: 0 when it is negative, at most about 285 years.
func saturatingNanoseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0, attoseconds >= 0 else { return 0 }
    let maximumSeconds: Int64 = 9_000_000_000
    guard seconds < maximumSeconds else { return UInt64(maximumSeconds) * 1_000_000_000 }
    return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
}
