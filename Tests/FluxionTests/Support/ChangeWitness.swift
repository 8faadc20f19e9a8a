import Fluxion
import Observation

/// Listens to stores every way there is, and records what each way heard.
///
/// Each store gets a token observer, an owner observer and an observation
/// tracker (`withObservationTracking { store.state }`); the dispatcher gets a
/// whole-dispatcher token observer. Entries read `"how: store action"`.
final class ChangeWitness: Sendable {
    private let heard = Recorder<String>()
    private let owner = ObserverOwner()
    private let tokens = LockedBox<[ObservationToken]>([])

    init(_ dispatcher: Dispatcher) {
        let heard = heard
        let token = dispatcher.observe { change in
            heard.append("dispatcher: \(change.storeType) \(change.action.name)")
        }
        tokens.withValue { $0.append(token) }
    }

    /// Starts listening to `store`, naming it `name` in the entries.
    func watch<State>(_ store: Store<State>, as name: String) {
        let heard = heard
        let token = store.observe { change in heard.append("token: \(name) \(change.action.name)") }
        store.observe(owner: owner) { _, change in heard.append("owner: \(name) \(change.action.name)") }
        _ = withObservationTracking {
            store.state
        } onChange: {
            heard.append("tracking: \(name)")
        }
        tokens.withValue { $0.append(token) }
    }

    /// What was heard, in order.
    var entries: [String] { heard.values }

    /// Forgets what was heard so far; the trackers, which fire once, are not renewed.
    func reset() {
        heard.removeAll()
    }
}
