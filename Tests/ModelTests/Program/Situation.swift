/// What an operation met where today's Fluxion breaks a promise the model makes: the model notes each as it
/// meets it (`ReferenceModel.situations`), and a switch of ``OpenDefects`` keeps the random run off it.
///
/// The model predicts what the docs promise; the notes follow what today's code does instead, only to say
/// where the two part. When a defect's fix lands, its switch goes (`OpenDefects`), and with it its case here
/// and the one line of the model that notes it. (The derive stage of issue 42 and one cancellation of issue 43
/// fixed the others found on 2026-12-01; their programs are regression tests in
/// `ComputedStoreRegressionTests.swift`.)
enum Situation: Hashable, Sendable {
    /// A time-travel move over a step that changed a store unregistered since: today the move sets the store's
    /// type, so it throws `storeNotRegistered` (the whole move fails), or, registered again, sets the new
    /// store to the old one's state (found by the model beside issue 42).
    case travelMovesUnregisteredStore
}

// Where today's code parts from the model: followed only to note the situations above.
extension ReferenceModel {
    mutating func note(_ situation: Situation) {
        situations.insert(situation)
    }

    /// Notes a move between `current` and `target` over a step that changed a store unregistered since (or
    /// registered again: a new store).
    mutating func noteMoveOverUnregisteredStores(to target: Int, from current: Int) {
        let (low, high) = (min(target, current), max(target, current))
        let moved = steps.filter { $0.sequence > low && $0.sequence <= high }.flatMap(\.changes).map(\.instance)
        if moved.contains(where: { !registered.contains($0.store) || $0 != instance(of: $0.store) }) {
            note(.travelMovesUnregisteredStore)
        }
    }
}
