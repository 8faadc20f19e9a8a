import Fluxion
import Foundation
import Observation
import Testing

/// A state whose handlers can tell whether they change it in place: its box is then uniquely referenced.
struct Shelving: Sendable, Equatable {
    final class Box: Sendable {}

    var box = Box()
    var books: [String] = []
    var label = ""

    /// Records whether the box is uniquely referenced: whether the state is being changed in place.
    mutating func note(into witness: LockedBox<[Bool]>) {
        let isUnique = isKnownUniquelyReferenced(&box)
        witness.withValue { $0.append(isUnique) }
    }

    static func == (lhs: Shelving, rhs: Shelving) -> Bool {
        lhs.books == rhs.books && lhs.label == rhs.label
    }
}

extension ActionName where Payload == String {
    fileprivate static var shelveInPlace: Self { "inPlaceShelve" }
    fileprivate static var shelveOnACopy: Self { "inPlaceShelveOnACopy" }
    fileprivate static var shelveByMethod: Self { "inPlaceShelveByMethod" }
    fileprivate static var label: Self { "inPlaceLabel" }
    fileprivate static var shelveEverywhere: Self { "inPlaceShelveEverywhere" }
}

extension ActionName where Payload == Gate {
    /// Shelves "Dune", opens the gate, then shelves it again: a reader let in half-way must wait.
    fileprivate static var shelveTwice: Self { "inPlaceShelveTwice" }
}

/// Whether each handler run found the state uniquely referenced, in order.
let inPlaceWitness = LockedBox<[Bool]>([])

final class ShelvingStore: Store<Shelving>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Shelving()) }

    override class var handlers: Handlers {
        HandlerTable()
            .on(.shelveInPlace) { state, action in
                state.note(into: inPlaceWitness)
                state.books.append(action.payload)
            }
            .on(.shelveOnACopy) { state, action in
                state.note(into: inPlaceWitness)
                try ShelvingStore.check(action.payload)
                state.books.append(action.payload)
            }
            .route(.shelveByMethod, to: ShelvingStore.shelve)
            .on(.label) { state, action in state.label = action.payload }
            .on(.shelveEverywhere) { state, action in
                state.note(into: inPlaceWitness)
                state.books.append(action.payload)
            }
            .on(.shelveTwice) { state, action in
                state.note(into: inPlaceWitness)
                state.books.append("Dune")
                action.payload.open()
                state.books.append("Dune, again")
            }
    }

    static func check(_ title: String) throws {
        if title.isEmpty { throw TestError("no title") }
    }

    func shelve(_ state: inout Shelving, _ action: Action<String>) {
        state.note(into: inPlaceWitness)
        state.books.append(action.payload)
    }
}

/// A second store of `.shelveEverywhere`: that action reaches two stores, and so stages.
final class ShelvingLogStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: Handlers {
        HandlerTable().on(.shelveEverywhere) { state, action in state.append(action.payload) }
    }
}

/// The tests share `inPlaceWitness`: they run one at a time.
@Suite(.serialized, .timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct StoreInPlaceTests {
    private func makeStore() throws -> (Dispatcher, ShelvingStore) {
        inPlaceWitness.value = []
        let dispatcher = Dispatcher()
        try dispatcher.register(ShelvingStore.self)
        try dispatcher.register(ShelvingLogStore.self)
        return (dispatcher, try dispatcher.store(ShelvingStore.self))
    }

    @Test func aHandlerThatCannotThrowChangesAnUnwatchedStateInPlace() throws {
        let (dispatcher, store) = try makeStore()

        try dispatcher.dispatch(.shelveInPlace, payload: "Dune")
        try dispatcher.dispatch(.shelveInPlace, payload: "Emma")

        #expect(inPlaceWitness.value == [true, true])
        #expect(store.books == ["Dune", "Emma"])
    }

    @Test func aHandlerThatCanThrowOrAMethodChangesACopy() throws {
        let (dispatcher, _) = try makeStore()

        try dispatcher.dispatch(.shelveOnACopy, payload: "Dune")
        try dispatcher.dispatch(.shelveByMethod, payload: "Emma")

        #expect(inPlaceWitness.value == [false, false])
    }

    @Test func anObservedStoreChangesACopy() throws {
        let (dispatcher, store) = try makeStore()
        let heard = LockedBox<[[String]]>([])
        let token = store.observe { change in heard.withValue { $0.append(change.oldState.books) } }

        try dispatcher.dispatch(.shelveInPlace, payload: "Dune")

        #expect(inPlaceWitness.value == [false])
        #expect(heard.value == [[]], "the observer gets the state from before")
        token.cancel()
    }

    @Test func anActionThatReachesSeveralStoresChangesACopy() throws {
        let (dispatcher, _) = try makeStore()

        try dispatcher.dispatch(.shelveEverywhere, payload: "Dune")

        #expect(inPlaceWitness.value == [false])
    }

    @Test func trackingTheWholeEquatableStateChangesACopy() throws {
        let (dispatcher, store) = try makeStore()
        let told = LockedBox(0)
        _ = withObservationTracking {
            store.state
        } onChange: {
            told.withValue { $0 += 1 }
        }

        try dispatcher.dispatch(.shelveInPlace, payload: "Dune")

        #expect(inPlaceWitness.value == [false])
        #expect(told.value == 1)
    }

    @Test func trackingOneValueKeepsChangingInPlaceAndTellsOnlyItsChanges() throws {
        let (dispatcher, store) = try makeStore()
        let told = LockedBox(0)
        _ = withObservationTracking {
            store.label
        } onChange: {
            told.withValue { $0 += 1 }
        }

        try dispatcher.dispatch(.shelveInPlace, payload: "Dune")
        #expect(told.value == 0, "the label did not change")
        try dispatcher.dispatch(.label, payload: "Classics")

        #expect(inPlaceWitness.value == [true])
        #expect(told.value == 1)
        #expect(store.label == "Classics")
    }

    @Test func aReaderOnAnotherThreadNeverSeesTheStateInTheMiddleOfTheHandler() throws {
        let (dispatcher, store) = try makeStore()
        let halfway = Gate()
        let read = Gate()
        let seen = LockedBox<[String]>([])
        Thread {
            halfway.wait()
            seen.value = store.books  // the handler may still run: this waits for it
            read.open()
        }.start()

        try dispatcher.dispatch(.shelveTwice, payload: halfway)
        read.wait()

        #expect(seen.value == ["Dune", "Dune, again"])
        #expect(inPlaceWitness.value == [true])
    }

    @Test func readersOnAnotherThreadWhileHandlersChangeTheStateInPlaceSeeEveryCommitInOrderAndNeverHang() throws {
        // NB: a reader that arrives while a handler runs flags the mark and waits; the handler then
        // clears it under the lock and wakes the reader. One that arrives after finds it cleared.
        let (dispatcher, store) = try makeStore()
        let done = Gate()
        let counts = LockedBox<[Int]>([])
        let appends = 2_000
        Thread {
            var seen: [Int] = []
            var last = 0
            while last < appends {
                last = store.books.count
                seen.append(last)
            }
            counts.value = seen
            done.open()
        }.start()

        for index in 0..<appends { try dispatcher.dispatch(.shelveInPlace, payload: "book \(index)") }
        done.wait()

        #expect(counts.value == counts.value.sorted())
        #expect(counts.value.last == appends)
        #expect(inPlaceWitness.value.allSatisfy { $0 })
    }
}
