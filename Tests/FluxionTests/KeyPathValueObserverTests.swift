import Fluxion
import Testing

extension ActionName where Payload == String {
    fileprivate static var rename: Self { "profileRename" }
    fileprivate static var move: Self { "profileMove" }
}

extension ActionName where Payload == Void {
    fileprivate static var visit: Self { "profileVisit" }
    fileprivate static var countedBump: Self { "countedBump" }
}

/// A state whose `countedValue` notes each read of it.
struct CountedReads: Sendable {
    var value = 0
    let reads: Recorder<Int>

    var countedValue: Int {
        reads.append(value)
        return value
    }
}

final class CountedReadsStore: Store<CountedReads>, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: CountedReads(reads: Recorder())) }

    override class var handlers: HandlerTable<CountedReads> {
        HandlerTable().on(.countedBump) { state, _ in state.value += 1 }
    }
}

// Key-path observers, token and owner-bound, keep the value after one change as the value before
// the next; these tests check that keeping it changes nothing an observer can see.
@Suite struct KeyPathValueObserverTests {
    private func makeStore() throws -> (Dispatcher, ProfileStore) {
        let dispatcher = Dispatcher()
        try dispatcher.register(ProfileStore.self)
        return (dispatcher, try dispatcher.store(ProfileStore.self))
    }

    /// Observes `keyPath` of a new `ProfileStore`, with a token (`owned` false) or an owner,
    /// recording each change as "old→new".
    private func observe<Value: Equatable & Sendable>(
        _ keyPath: KeyPath<Profile, Value> & Sendable, owned: Bool
    ) throws -> (Dispatcher, ProfileStore, Recorder<String>, AnyObject) {
        let (dispatcher, store) = try makeStore()
        let heard = Recorder<String>()
        let owner = ObserverOwner()
        let keeper: AnyObject =
            owned
            ? store.observe(owner: owner, keyPath) { _, change in heard.append("\(change.oldValue)→\(change.newValue)")
            }
            : store.observe(keyPath) { change in heard.append("\(change.oldValue)→\(change.newValue)") }
        return (dispatcher, store, heard, owned ? owner : keeper)
    }

    @Test(arguments: [false, true])
    func aValueKeptBeforeAChangeMadeOnACopyIsReadAgain(owned: Bool) throws {
        let (dispatcher, store, heard, keeper) = try observe(\.name, owned: owned)

        try dispatcher.dispatch(.rename, payload: "Bea")
        // An observer of whole changes needs the old state: the next change is made on a copy.
        let whole = store.observe { _ in }
        try dispatcher.dispatch(.rename, payload: "Cy")
        whole.cancel()
        try dispatcher.dispatch(.rename, payload: "Di")

        #expect(heard.values == ["Ada→Bea", "Bea→Cy", "Cy→Di"])
        withExtendedLifetime(keeper) {}
    }

    @Test(arguments: [false, true])
    func aPathThroughAComputedPropertyIsCompared(owned: Bool) throws {
        let (dispatcher, _, heard, keeper) = try observe(\.name.count, owned: owned)

        try dispatcher.dispatch(.rename, payload: "Bob")
        try dispatcher.dispatch(.visit)
        try dispatcher.dispatch(.rename, payload: "Grace")

        #expect(heard.values == ["3→5"])
        withExtendedLifetime(keeper) {}
    }

    @Test(arguments: [false, true])
    func aPathOfStoredPropertiesIsReadAtItsOffset(owned: Bool) throws {
        let (dispatcher, _, heard, keeper) = try observe(\.address.city, owned: owned)

        // NB: a name too long to be stored inline: the kept value owns a buffer.
        let long = String(repeating: "Paris", count: 10)
        try dispatcher.dispatch(.rename, payload: "Bob")
        try dispatcher.dispatch(.move, payload: long)
        try dispatcher.dispatch(.move, payload: "Nice")

        #expect(heard.values == ["Lyon→\(long)", "\(long)→Nice"])
        withExtendedLifetime(keeper) {}
    }

    @Test(arguments: [false, true])
    func eachChangeInPlaceReadsTheValueOnce(owned: Bool) throws {
        let dispatcher = Dispatcher()
        let reads = Recorder<Int>()
        try dispatcher.register(CountedReadsStore.self, initialState: CountedReads(reads: reads)) {
            CountedReadsStore()
        }
        let store = try dispatcher.store(CountedReadsStore.self)
        let heard = Recorder<Int>()
        let owner = ObserverOwner()
        let keeper: AnyObject =
            owned
            ? store.observe(owner: owner, \.countedValue) { _, change in heard.append(change.newValue) }
            : store.observe(\.countedValue) { change in heard.append(change.newValue) }

        for _ in 0..<3 { try dispatcher.dispatch(.countedBump) }

        #expect(heard.values == [1, 2, 3])
        #expect(reads.values == [0, 1, 2, 3], "the value before the first change, then each new one")
        withExtendedLifetime((keeper, owner)) {}
    }

    @Test func anOwnerBoundKeyPathObserverStopsWhenItsHandleCancels() throws {
        let (dispatcher, store) = try makeStore()
        let owner = ObserverOwner()
        let visits = Recorder<Int>()
        let handle = store.observe(owner: owner, \.visits) { _, change in visits.append(change.newValue) }

        try dispatcher.dispatch(.visit)
        handle.cancel()
        try dispatcher.dispatch(.visit)

        #expect(visits.values == [1])
        #expect(handle.isCancelled)
    }
}
