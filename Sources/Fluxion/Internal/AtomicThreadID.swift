import CFluxionAtomics

/// The thread that holds something (the dispatch turn, a staged state, a state changed in place),
/// which any thread may read without a lock.
///
/// Only a thread names itself, and only the thread named clears it. So a
/// thread that reads its own identifier holds what the value stands for,
/// and one that reads another does not, with no lock: it is its own last write.
/// A waiter may flag the value (``flagWaiting(for:)``), so that the holder
/// knows to wake it (``clear(_:)`` returns `false`).
@usableFromInline
final class AtomicThreadID: @unchecked Sendable {  // the value is a C11 atomic
    private let storage = UnsafeMutablePointer<fluxion_counter>.allocate(capacity: 1)
    /// Set by a waiter; thread identifiers are aligned addresses, whose lowest bit is zero.
    private static let waitingBit: UInt64 = 1

    @usableFromInline
    init() {
        fluxion_counter_init(storage)
    }

    deinit {
        storage.deallocate()
    }

    /// The thread named now, if any.
    @usableFromInline
    var thread: ThreadID? {
        let raw = fluxion_counter_load(storage) & ~Self.waitingBit
        return raw == 0 ? nil : ThreadID(raw: UInt(raw))
    }

    /// Whether `thread` is the one named: exact without a lock when `thread` is the calling thread.
    @usableFromInline
    func names(_ thread: ThreadID) -> Bool {
        fluxion_counter_load(storage) & ~Self.waitingBit == UInt64(thread.raw)
    }

    /// Names `thread`, or, with `nil`, no thread.
    @usableFromInline
    func set(_ thread: ThreadID?) {
        fluxion_counter_store(storage, UInt64(thread?.raw ?? 0))
    }

    /// Names no thread any more, if `thread` is named and no waiter flagged it; whether it did.
    /// When it did not, a waiter waits: the caller clears the value under its lock and wakes the waiter.
    @usableFromInline
    func clear(_ thread: ThreadID) -> Bool {
        fluxion_counter_replace(storage, UInt64(thread.raw), 0) != 0
    }

    /// Flags that a thread waits for `thread` to clear the value; `false` when it is cleared already.
    @usableFromInline
    func flagWaiting(for thread: ThreadID) -> Bool {
        let raw = UInt64(thread.raw)
        return fluxion_counter_replace(storage, raw, raw | Self.waitingBit) != 0
            || fluxion_counter_load(storage) == raw | Self.waitingBit
    }
}
