import CFluxionAtomics

/// A Boolean that threads set and others read, without a lock.
@usableFromInline
final class AtomicFlag: @unchecked Sendable {  // the value is a C11 atomic
    private let storage = UnsafeMutablePointer<fluxion_counter>.allocate(capacity: 1)

    init() {
        fluxion_counter_init(storage)
    }

    deinit {
        storage.deallocate()
    }

    /// The value last set, from any thread.
    @usableFromInline
    var isSet: Bool {
        fluxion_counter_load(storage) != 0
    }

    @usableFromInline
    func set(_ value: Bool) {
        fluxion_counter_store(storage, value ? 1 : 0)
    }
}
