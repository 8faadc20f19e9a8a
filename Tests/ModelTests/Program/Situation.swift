/// What an operation met where today's Fluxion breaks a promise the model makes: the model notes each as it
/// meets it (`ReferenceModel.situations`), and a switch of ``OpenDefects`` keeps the random run off it.
///
/// The model predicts what the docs promise; the notes follow what today's code does instead, only to say
/// where the two part. When a defect's fix lands, its switch goes (`OpenDefects`), and with it its case here
/// and the one line of the model that notes it.
enum Situation: Hashable, Sendable {
    /// A batch brought a source of a computed store back to its committed state after changing it: today the
    /// computed store keeps the state computed in the middle (issue 42: `batch { add 1; add -1 }`).
    case sourceBroughtBack
    /// A batch's inline mutation of a computed store: today it is accepted, and sets the computed store apart
    /// from its sources (issue 42: `batch.mutate(ComputedStore.self)`).
    case computedStoreMutated
    /// The unregistering of a source of a registered computed store: today the computed store stays
    /// registered, with the old source's state, and every action the source handled throws (issue 42).
    case sourceUnregistered
    /// A `read {}` inside a handler, while a computed store's sources have changed in the running action:
    /// today it reads the computed store's state from before (issue 42: `counter 1, tenfold 0`).
    case readSeesStaleComputed
    /// A time-travel move where a computed store's journaled state is not what its sources' states compute
    /// (it was registered after their first steps): today the move sets the journaled state (issue 42).
    case travelSetsComputedStore
    /// A time-travel move over a step that changed a store unregistered since: today the move sets the store's
    /// type, so it throws `storeNotRegistered` (the whole move fails), or, registered again, sets the new
    /// store to the old one's state (found by the model; not in issue 42's list).
    case travelMovesUnregisteredStore
    /// A replay that sets a computed store's recorded state (a step that does not replay, a store's state
    /// before its first change) where the replay's sources do not compute it (D's state, which is not `Codable`,
    /// is not set): today the replay sets it, apart from its sources (issue 42's "derived, never set").
    case replaySetsComputedStore
    /// An effect started with `cancelInFlight` that cancels a running task of its id, in an operation whose
    /// step's observer cancelled tasks: today the effect it cancels, asked earlier in the same step, never
    /// runs its work (where the model, as the docs say, starts it, then cancels it). Found beside issue 42 by
    /// 2,000 programs; issue 43's (cancellation that reaches every state of a task).
    case cancelInFlightAfterObserverCancel
    /// A handler that changes its state in place (store H's) and leaves it equal: today the journal line still
    /// lists the store under its changes (issue 42: a replay where the store is not registered then fails with
    /// "records the store …" instead of `unknownAction`).
    case inPlaceStateLeftEqual
    /// A handler that changes its state in place (store H's) and reads its own store's `state`: today the
    /// process stops on a `precondition` in `Store+State.swift` (issue 42's trap on a user path). Its
    /// known-issue test runs as an exit test.
    case inPlaceHandlerReadsItsStore
    /// Not a defect: an observer of a step cancelled tasks (what `cancelInFlightAfterObserverCancel` needs).
    case observerCancelledTasks
}

// Where today's code parts from the model: followed only to note the situations above.
extension ReferenceModel {
    /// Notes a `cancelInFlight` start that reaches a running task after an observer of a step cancelled tasks.
    mutating func noteTodaysCancelInFlight(of id: String) {
        guard situations.contains(.observerCancelledTasks) else { return }
        if tasks.values.contains(where: { !$0.isChild && $0.phase != .ended && $0.plan.id == id }) {
            note(.cancelInFlightAfterObserverCancel)
        }
    }

    mutating func note(_ situation: Situation) {
        situations.insert(situation)
    }

    /// Starts following a step as today's code computes its computed stores: inside each action, once its
    /// sources' handlers ran, and only when a source's staged state differs from its committed one.
    mutating func beginTodaysComputation() {
        todaysComputed = present
    }

    /// Follows one action (or inline mutation) of a batch that left the staged states `staged`.
    mutating func followTodaysComputation(of staged: [[Int]]) {
        var todays = staged
        for store in Derivation.computed where registered.contains(store) {
            todays[store] = todaysComputed[store]
            if Derivation.sources(of: store).contains(where: { todays[$0] != present[$0] }) {
                todays[store] = Derivation.compute(store, from: todays)
            }
        }
        todaysComputed = todays
        if Derivation.derive(staged, registered: registered) != todays { note(.sourceBroughtBack) }
    }

    /// Notes a `read {}` inside a handler that today reads a computed store's state from before the action.
    mutating func noteTodaysRead(of staged: [[Int]]) {
        let derived = Derivation.derive(staged, registered: registered)
        if Derivation.computed.contains(where: { registered.contains($0) && derived[$0] != todaysComputed[$0] }) {
            note(.readSeesStaleComputed)
        }
    }

    /// Notes a move that today sets a computed store to a journaled state its sources do not compute.
    mutating func noteTodaysMove(to target: Int, from current: Int, settingSources states: [[Int]]) {
        let derived = Derivation.derive(states, registered: registered)
        for store in Derivation.computed where registered.contains(store) {
            if let journaled = journaledState(of: instance(of: store), after: target, from: current),
                journaled != derived[store]
            {
                note(.travelSetsComputedStore)
            }
        }
        let (low, high) = (min(target, current), max(target, current))
        let moved = steps.filter { $0.sequence > low && $0.sequence <= high }.flatMap(\.changes).map(\.instance)
        if moved.contains(where: { !registered.contains($0.store) || $0 != instance(of: $0.store) }) {
            note(.travelMovesUnregisteredStore)
        }
    }
}
