import Fluxion
import Testing

private struct Level: Sendable, Equatable, Codable {
    var value = 0
}

/// Like ``Level``, but not `Equatable`: the dispatcher cannot tell a no-op from a change.
private struct PlainLevel: Sendable {
    var value = 0
}

extension ActionName where Payload == Int {
    fileprivate static var txnEqSet: Self { "txnEqSet" }
}

extension ActionName where Payload == Void {
    fileprivate static var txnEqNoop: Self { "txnEqNoop" }
}

/// `.txnEqSet` sets the value; `.txnEqNoop` runs and changes nothing.
private final class LevelStore: Store<Level>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Level()) }

    override class var handlers: HandlerTable<Level> {
        HandlerTable()
            .on(.txnEqSet) { state, action in state.value = action.payload }
            .on(.txnEqNoop) { _, _ in }
    }
}

/// ``LevelStore`` with a state that is not `Equatable`.
private final class PlainLevelStore: Store<PlainLevel>, DefaultInitializable, @unchecked Sendable {  // Store's lock
    init() { super.init(initialState: PlainLevel()) }

    override class var handlers: HandlerTable<PlainLevel> {
        HandlerTable()
            .on(.txnEqSet) { state, action in state.value = action.payload }
            .on(.txnEqNoop) { _, _ in }
    }
}

/// Counts `.txnEqNoop`: it changes whenever the others do not.
private final class NoopCounterStore: Store<Int>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: 0) }

    override class var handlers: HandlerTable<Int> {
        HandlerTable().on(.txnEqNoop) { state, _ in state += 1 }
    }
}

/// ``LevelStore``, persisted.
private final class SavedLevelStore: Store<Level>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Level()) }

    override class var handlers: HandlerTable<Level> {
        HandlerTable()
            .on(.txnEqSet) { state, action in state.value = action.payload }
            .on(.txnEqNoop) { _, _ in }
    }
}

@Suite struct TransactionEqualityTests {
    @Test(arguments: [false, true])
    func aHandlerThatLeavesAnEquatableStateEqualIsNoChange(batched: Bool) throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(LevelStore.self)
        let store = try dispatcher.store(LevelStore.self)
        let witness = ChangeWitness(dispatcher)
        witness.watch(store, as: "level")

        if batched {
            try dispatcher.batch { batch in
                try batch.dispatch(.txnEqNoop)
                try batch.dispatch(.txnEqSet, payload: 0)
                try batch.dispatch(.txnEqSet, payload: 4)
                try batch.dispatch(.txnEqSet, payload: 0)
            }
        } else {
            try dispatcher.dispatch(.txnEqNoop)
            try dispatcher.dispatch(.txnEqSet, payload: 0)
        }

        #expect(witness.entries.isEmpty)

        try dispatcher.dispatch(.txnEqSet, payload: 1)
        #expect(witness.entries.count == 4, "a real change is heard: \(witness.entries)")
    }

    @Test func aStoreLeftEqualBesideAStoreThatChangesIsNotHeard() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(LevelStore.self)
        try dispatcher.register(NoopCounterStore.self)
        let level = try dispatcher.store(LevelStore.self)
        let counter = try dispatcher.store(NoopCounterStore.self)
        let witness = ChangeWitness(dispatcher)
        witness.watch(level, as: "level")
        witness.watch(counter, as: "counter")

        try dispatcher.dispatch(.txnEqNoop)

        #expect(counter.state == 1)
        #expect(
            witness.entries.sorted() == [
                "dispatcher: NoopCounterStore txnEqNoop", "owner: counter txnEqNoop", "token: counter txnEqNoop",
                "tracking: counter",
            ])
    }

    @Test func aHandlerThatLeavesANonEquatableStateAloneStillTellsObservers() throws {
        let dispatcher = Dispatcher()
        try dispatcher.register(PlainLevelStore.self)
        let store = try dispatcher.store(PlainLevelStore.self)
        let witness = ChangeWitness(dispatcher)
        witness.watch(store, as: "plain")

        try dispatcher.dispatch(.txnEqNoop)

        #expect(
            witness.entries.sorted() == [
                "dispatcher: PlainLevelStore txnEqNoop", "owner: plain txnEqNoop", "token: plain txnEqNoop",
                "tracking: plain",
            ])
    }

    @Test func aPersistentStoreWhoseHandlerChangesNothingSchedulesNoSave() throws {
        let storage = ScriptedStorage()
        let scheduler = ManualScheduler()
        let dispatcher = Dispatcher()
        let errors = Recorder<PersistenceError>()
        dispatcher.onPersistenceError = { errors.append($0) }
        try dispatcher.register(
            SavedLevelStore.self,
            persistence: Persistence(storage: storage, key: "txnSavedLevel", scheduler: scheduler))
        let store = try dispatcher.store(SavedLevelStore.self)

        try dispatcher.dispatch(.txnEqNoop)
        try dispatcher.dispatch(.txnEqSet, payload: 0)

        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(60))
        #expect(storage.saves.isEmpty)

        try dispatcher.dispatch(.txnEqSet, payload: 3)
        scheduler.advance(by: .seconds(60))
        #expect(storage.saves.count == 1, "a real change is saved")
        #expect(store.state == Level(value: 3))
        #expect(errors.values.isEmpty)
    }
}
