import Dispatch

/// Runs observers' calls asynchronously on a queue, one at a time and in the order of the changes.
///
/// Changes are produced in order by the dispatch turn, and each is handed to
/// a serial queue that targets the caller's: a concurrent target queue cannot
/// reorder them, so an observer never hears an older state after a newer one.
@usableFromInline
struct Delivery: Sendable {
    @usableFromInline let queue: DispatchQueue

    @usableFromInline
    init(on target: DispatchQueue) {
        queue = target === DispatchQueue.main ? target : DispatchQueue(label: "Fluxion.delivery", target: target)
    }

    /// The main queue, whose calls run on the main actor.
    @usableFromInline
    static var mainActor: Delivery { Delivery(on: .main) }

    /// `body`, called on the queue while its owner lives and `gate` is open.
    @usableFromInline
    func owned<Owner: AnyObject & Sendable, Change: Sendable>(
        _ body: @escaping @Sendable (Owner, Change) -> Void,
        by gate: DeliveryGate
    ) -> @Sendable (Owner, Change) -> Void {
        { [queue] owner, change in
            queue.async { [weak owner] in
                gate.ifOpen { if let owner { body(owner, change) } }
            }
        }
    }

    /// `body`, called on the queue until `gate` closes.
    @usableFromInline
    func gated<Change: Sendable>(
        _ body: @escaping @Sendable (Change) -> Void,
        by gate: DeliveryGate
    ) -> @Sendable (Change) -> Void {
        { [queue] change in
            queue.async { gate.ifOpen { body(change) } }
        }
    }
}

/// Cancels an observer whose calls are queued, so that no queued call that checks the gate after the
/// cancel has returned runs. NB: a call that checked it just before still runs, on the queue: a
/// cancel made on that queue, when it is serial, therefore leaves no call at all.
@usableFromInline
final class DeliveryGate: Cancellable, @unchecked Sendable {  // `isOpen` and `observer` guarded by `lock`
    private let lock = Lock()
    private var isOpen = true
    private var observer: (any Cancellable)?

    @usableFromInline
    init() {}

    /// Sets the observer to cancel with the gate.
    @usableFromInline
    func guarding(_ observer: any Cancellable) -> Self {
        lock.withLock { self.observer = observer }
        return self
    }

    /// Runs `body` unless the gate is closed.
    func ifOpen(_ body: () -> Void) {
        guard lock.withLock({ isOpen }) else { return }
        body()
    }

    @usableFromInline
    func cancel() {
        let observer = lock.withLock {
            isOpen = false
            defer { self.observer = nil }
            return self.observer
        }
        observer?.cancel()
    }
}
