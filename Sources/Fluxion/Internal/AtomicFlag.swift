import CFluxionAtomics

/// A Boolean that a thread sets, under a lock, and that others read without the lock, as a hint.
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

    func set(_ value: Bool) {
        fluxion_counter_store(storage, value ? 1 : 0)
    }
}
