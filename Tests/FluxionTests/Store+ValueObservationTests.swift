import Fluxion
import Testing

struct Profile: Sendable, Equatable {
    struct Address: Sendable, Equatable {
        var city = "Lyon"
    }

    var name = "Ada"
    var visits = 0
    var address = Address()
}

/// Not `Equatable`: selector observers compare it with a closure.
struct Badge: Sendable {
    let label: String
}

extension ActionName where Payload == String {
    fileprivate static var rename: Self { "profileRename" }
    fileprivate static var move: Self { "profileMove" }
}

extension ActionName where Payload == Void {
    fileprivate static var visit: Self { "profileVisit" }
    fileprivate static var failVisit: Self { "profileFailVisit" }
}

final class ProfileStore: Store<Profile>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Profile()) }

    override class var handlers: HandlerTable<Profile> {
        HandlerTable()
            .on(.rename) { state, action in state.name = action.payload }
            .on(.move) { state, action in state.address.city = action.payload }
            .on(.visit) { state, _ in state.visits += 1 }
            .on(.failVisit) { state, _ in
                state.visits += 1
                throw TestError("failVisit")
            }
    }
}

/// A new dispatcher with a `ProfileStore`, created.
private func makeProfileStore() throws -> (Dispatcher, ProfileStore) {
    let dispatcher = Dispatcher()
    try dispatcher.register(ProfileStore.self)
    return (dispatcher, try dispatcher.store(ProfileStore.self))
}

@Suite struct StoreValueObservationTests {
    @Test func keyPathObserverFiresOnlyWhenItsValueChanges() throws {
        let (dispatcher, store) = try makeProfileStore()
        let owner = ObserverOwner()
        let names = Recorder<String>()
        store.observe(owner: owner, \.name) { _, name in names.append(name.newValue) }

        try dispatcher.dispatch(.visit)
        try dispatcher.dispatch(.move, payload: "Paris")
        #expect(names.values.isEmpty)

        try dispatcher.dispatch(.rename, payload: "Grace")
        try dispatcher.dispatch(.rename, payload: "Grace")
        #expect(names.values == ["Grace"])
    }

    @Test func keyPathObserverGetsOldValueNewValueAndAction() throws {
        let (dispatcher, store) = try makeProfileStore()
        let owner = ObserverOwner()
        let changes = Recorder<ValueChange<Int>>()
        store.observe(owner: owner, \.visits) { _, visits in changes.append(visits) }

        try dispatcher.dispatch(.visit)

        let change = try #require(changes.values.first)
        #expect(change.oldValue == 0)
        #expect(change.newValue == 1)
        #expect(change.action.name == "profileVisit")
    }

    @Test func nestedKeyPathsAreObserved() throws {
        let (dispatcher, store) = try makeProfileStore()
        let owner = ObserverOwner()
        let cities = Recorder<String>()
        store.observe(owner: owner, \.address.city) { _, city in cities.append(city.newValue) }

        try dispatcher.dispatch(.rename, payload: "Grace")
        try dispatcher.dispatch(.move, payload: "Paris")

        #expect(cities.values == ["Paris"])
    }

    @Test func selectorObserverComparesWithTheGivenEquality() throws {
        let (dispatcher, store) = try makeProfileStore()
        let owner = ObserverOwner()
        let labels = Recorder<String>()
        store.observe(
            owner: owner,
            selecting: { Badge(label: $0.name.uppercased()) },
            isEqual: { $0.label == $1.label },
            onChange: { _, badge in labels.append("\(badge.oldValue.label)→\(badge.newValue.label)") }
        )

        try dispatcher.dispatch(.visit)
        try dispatcher.dispatch(.rename, payload: "ada")
        try dispatcher.dispatch(.rename, payload: "Grace")

        #expect(labels.values == ["ADA→GRACE"])
    }

    @Test func aFailingHandlerWakesNoValueObserver() throws {
        let (dispatcher, store) = try makeProfileStore()
        let owner = ObserverOwner()
        let visits = Recorder<Int>()
        store.observe(owner: owner, \.visits) { _, change in visits.append(change.newValue) }

        #expect(throws: TestError("failVisit")) { try dispatcher.dispatch(.failVisit) }

        #expect(visits.values.isEmpty)
        #expect(store.state.visits == 0)
    }

    @Test func keyPathObserverStopsWhenItsOwnerDeallocates() throws {
        let (dispatcher, store) = try makeProfileStore()
        let visits = Recorder<Int>()
        var owner: ObserverOwner? = ObserverOwner()
        weak let weakOwner = owner
        store.observe(owner: try #require(owner), \.visits) { _, change in visits.append(change.newValue) }

        try dispatcher.dispatch(.visit)
        owner = nil
        try dispatcher.dispatch(.visit)

        #expect(weakOwner == nil)
        #expect(visits.values == [1])
    }

    @Test func tokenKeyPathObserverStopsWhenCancelled() throws {
        let (dispatcher, store) = try makeProfileStore()
        let names = Recorder<String>()
        let token = store.observe(\.name) { name in names.append(name.newValue) }

        try dispatcher.dispatch(.visit)
        try dispatcher.dispatch(.rename, payload: "Grace")
        token.cancel()
        try dispatcher.dispatch(.rename, payload: "Linus")

        #expect(names.values == ["Grace"])
    }

    @Test func tokenSelectorObserverStopsWhenReleased() throws {
        let (dispatcher, store) = try makeProfileStore()
        let counts = Recorder<Int>()
        var token: ObservationToken? = store.observe(
            selecting: { $0.visits * 10 },
            isEqual: { $0 == $1 },
            onChange: { counts.append($0.newValue) }
        )

        try dispatcher.dispatch(.visit)
        #expect(token?.isCancelled == false)
        token = nil
        try dispatcher.dispatch(.visit)

        #expect(counts.values == [10])
    }
}

@Suite struct CurrentStateObservationTests {
    @Test func observersAreNotCalledOnStartByDefault() throws {
        let (_, store) = try makeProfileStore()
        let owner = ObserverOwner()
        let calls = Recorder<Int>()
        store.observe(owner: owner) { _, change in calls.append(change.newState.visits) }
        let token = store.observe { change in calls.append(change.newState.visits) }

        #expect(calls.values.isEmpty)
        withExtendedLifetime(token) {}
    }

    @Test func anObserverAskingForTheCurrentStateHearsItFirst() throws {
        let (dispatcher, store) = try makeProfileStore()
        try dispatcher.dispatch(.visit)
        let owner = ObserverOwner()
        let calls = Recorder<String>()
        store.observe(owner: owner, sendingCurrentState: true) { _, change in
            calls.append("\(change.isCurrentState) \(change.oldState.visits)→\(change.newState.visits)")
        }

        try dispatcher.dispatch(.visit)

        #expect(calls.values == ["true 1→1", "false 1→2"])
    }

    @Test func aTokenObserverAskingForTheCurrentStateHearsItFirst() throws {
        let (dispatcher, store) = try makeProfileStore()
        try dispatcher.dispatch(.rename, payload: "Grace")
        let names = Recorder<String>()
        let token = store.observe(\.name, sendingCurrentState: true) { name in
            names.append("\(name.oldValue)→\(name.newValue)")
        }

        try dispatcher.dispatch(.visit)
        try dispatcher.dispatch(.rename, payload: "Linus")

        #expect(names.values == ["Grace→Grace", "Grace→Linus"])
        withExtendedLifetime(token) {}
    }

    @Test func anObserverAddedFromAnObserverHearsTheCurrentStateAtOnce() throws {
        let (dispatcher, store) = try makeProfileStore()
        let owner = ObserverOwner()
        let calls = Recorder<String>()
        let added = LockedBox(false)
        store.observe(owner: owner) { owner, change in
            guard !added.value else { return }
            added.value = true
            store.observe(owner: owner, sendingCurrentState: true) { _, inner in
                calls.append("inner \(inner.isCurrentState) \(inner.newState.visits)")
            }
            calls.append("outer \(change.newState.visits)")
        }

        try dispatcher.dispatch(.visit)
        try dispatcher.dispatch(.visit)

        #expect(calls.values == ["inner true 1", "outer 1", "inner false 2"])
    }
}
