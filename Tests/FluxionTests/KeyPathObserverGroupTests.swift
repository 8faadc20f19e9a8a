import Fluxion
import Testing

extension ActionName where Payload == String {
    fileprivate static var rename: Self { "profileRename" }
}

extension ActionName where Payload == Void {
    fileprivate static var visit: Self { "profileVisit" }
}

// Token key-path observers of one key path share one comparison per change;
// these tests check that sharing changes nothing an observer can see.
@Suite struct KeyPathObserverGroupTests {
    private func makeStore() throws -> (Dispatcher, ProfileStore) {
        let dispatcher = Dispatcher()
        try dispatcher.register(ProfileStore.self)
        return (dispatcher, try dispatcher.store(ProfileStore.self))
    }

    @Test func everyObserverOfAKeyPathHearsEachChangeOnce() throws {
        let (dispatcher, store) = try makeStore()
        let heard = Recorder<String>()
        let tokens = (0..<3).map { index in
            store.observe(\.name) { change in heard.append("\(index):\(change.oldValue)→\(change.newValue)") }
        }

        try dispatcher.dispatch(.visit)
        try dispatcher.dispatch(.rename, payload: "Bea")

        #expect(heard.values == ["0:Ada→Bea", "1:Ada→Bea", "2:Ada→Bea"])
        for token in tokens { token.cancel() }
    }

    @Test func cancellingOneObserverLeavesTheOthers() throws {
        let (dispatcher, store) = try makeStore()
        let heard = Recorder<Int>()
        let first = store.observe(\.name) { _ in heard.append(1) }
        let second = store.observe(\.name) { _ in heard.append(2) }

        first.cancel()
        try dispatcher.dispatch(.rename, payload: "Bea")
        second.cancel()
        try dispatcher.dispatch(.rename, payload: "Cy")
        let third = store.observe(\.name) { _ in heard.append(3) }
        try dispatcher.dispatch(.rename, payload: "Di")

        #expect(heard.values == [2, 3], "the group emptied and was made again")
        third.cancel()
    }

    @Test func anObserverJoiningDuringADeliveryFirstHearsTheNextChange() throws {
        let (dispatcher, store) = try makeStore()
        let heard = Recorder<String>()
        let late = LockedBox<ObservationToken?>(nil)
        // Listed before the key path's group, so it joins the group before the group hears the change.
        let adder = store.observe { _ in
            if late.value == nil {
                late.value = store.observe(\.name) { change in heard.append("late \(change.newValue)") }
            }
        }
        let early = store.observe(\.name) { change in heard.append("early \(change.newValue)") }

        try dispatcher.dispatch(.rename, payload: "Bea")
        try dispatcher.dispatch(.rename, payload: "Cy")

        #expect(heard.values == ["early Bea", "early Cy", "late Cy"])
        for token in [adder, early, late.value] { token?.cancel() }
    }

    @Test func anObserverJoiningAGroupCanAskForTheCurrentValue() throws {
        let (dispatcher, store) = try makeStore()
        let heard = Recorder<String>()
        let first = store.observe(\.name) { _ in }
        let second = store.observe(\.name, sendingCurrentState: true) { change in
            heard.append("\(change.oldValue)→\(change.newValue) \(change.action.name)")
        }

        try dispatcher.dispatch(.rename, payload: "Bea")

        #expect(heard.values == ["Ada→Ada Fluxion.currentState", "Ada→Bea profileRename"])
        first.cancel()
        second.cancel()
    }
}
