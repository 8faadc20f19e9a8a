import CFluxionAtomics

/// A number that threads write under a lock and others read without it.
final class AtomicCounter: @unchecked Sendable {  // the value is a C11 atomic
    private let storage = UnsafeMutablePointer<fluxion_counter>.allocate(capacity: 1)

    init() {
        fluxion_counter_init(storage)
    }

    deinit {
        storage.deallocate()
    }

    /// The value last stored, from any thread.
    var value: UInt64 {
        fluxion_counter_load(storage)
    }

    func store(_ value: UInt64) {
        fluxion_counter_store(storage, value)
    }
}
