import Fluxion
import Foundation
import Observation
import Testing

/// A library whose values views read through the store; it counts how often its computed value runs.
struct Library: Sendable, Equatable {
    /// A shelf whose box tells a handler whether the shelf is being changed in place.
    struct Shelf: Sendable, Equatable {
        final class Box: Sendable {}

        var box = Box()
        var books: [String] = []

        static func == (lhs: Shelf, rhs: Shelf) -> Bool { lhs.books == rhs.books }
    }

    var shelf = Shelf()
    var tags = ["novels", "poems"]
    var selected: Int? = 0
    var label = ""
    /// Counts the runs of ``selectedTag``.
    let reads = LockedBox(0)

    /// The selected tag: user code that Fluxion runs only for a tracker that read it.
    var selectedTag: String? {
        reads.withValue { $0 += 1 }
        return selected.map { tags[$0] }
    }

    /// The shelf, in a value that is not `Equatable`.
    var looseShelf: LooseShelf { LooseShelf(shelf: shelf) }

    struct LooseShelf: Sendable {
        let shelf: Shelf
    }

    static func == (lhs: Library, rhs: Library) -> Bool {
        lhs.shelf == rhs.shelf && lhs.tags == rhs.tags && lhs.selected == rhs.selected && lhs.label == rhs.label
    }
}

extension ActionName where Payload == String {
    fileprivate static var shelveBook: Self { "trackingLifetimeShelve" }
    fileprivate static var relabel: Self { "trackingLifetimeRelabel" }
    fileprivate static var retitleFirst: Self { "trackingLifetimeRetitleFirst" }
}

extension ActionName where Payload == Int? {
    fileprivate static var select: Self { "trackingLifetimeSelect" }
}

final class LibraryStore: Store<Library>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Library()) }

    override class var handlers: Handlers {
        // NB: none of these can throw, so each changes the state in place when nothing needs the old one.
        HandlerTable()
            .on(.shelveBook) { state, action in
                inPlaceShelves.withValue { $0.append(isKnownUniquelyReferenced(&state.shelf.box)) }
                state.shelf.books.append(action.payload)
            }
            .on(.relabel) { state, action in state.label = action.payload }
            .on(.retitleFirst) { state, action in state.shelf.books[0] = action.payload }
            .on(.select) { state, action in state.selected = action.payload }
    }
}

/// Whether each `shelve` found the shelf uniquely referenced; the suite runs its tests one at a time.
let inPlaceShelves = LockedBox<[Bool]>([])

/// Tracks `read` inside `withObservationTracking` and counts how often the tracker is told.
private func track<Value>(_ read: () -> Value) -> LockedBox<Int> {
    let told = LockedBox(0)
    _ = withObservationTracking(read) { told.withValue { $0 += 1 } }
    return told
}

@Suite(.serialized, .timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct StoreValueTrackingLifetimeTests {
    private func makeStore() throws -> (Dispatcher, LibraryStore) {
        inPlaceShelves.value = []
        let dispatcher = Dispatcher()
        try dispatcher.register(LibraryStore.self)
        return (dispatcher, try dispatcher.store(LibraryStore.self))
    }

    @Test func aValueReadOutsideTrackingIsNotEvaluatedAtLaterCommits() throws {
        let (dispatcher, store) = try makeStore()
        #expect(store.selectedTag == "novels")
        let readsAfterReading = store.state.reads.value

        try dispatcher.dispatch(.select, payload: nil)
        try dispatcher.dispatch(.relabel, payload: "Fiction")

        #expect(store.state.reads.value == readsAfterReading, "no code runs for a reader nobody listens to")
    }

    @Test func aTrackedValueIsEvaluatedUntilItsTrackerFiresAndThenNoMore() throws {
        let (dispatcher, store) = try makeStore()
        let told = track { store.selectedTag }

        try dispatcher.dispatch(.relabel, payload: "Fiction")
        #expect(told.value == 0, "the tag did not change")
        try dispatcher.dispatch(.select, payload: 1)
        #expect(told.value == 1)
        let readsWhenTold = store.state.reads.value

        try dispatcher.dispatch(.select, payload: nil)
        try dispatcher.dispatch(.relabel, payload: "Verse")

        #expect(store.state.reads.value == readsWhenTold, "a tracker that fired is done until the value is read again")
        #expect(told.value == 1)
    }

    @Test func aValueReadAgainInsideTrackingIsToldOfItsNextChange() throws {
        let (dispatcher, store) = try makeStore()
        let first = track { store.selectedTag }
        try dispatcher.dispatch(.select, payload: 1)
        try dispatcher.dispatch(.select, payload: 0)

        let second = track { store.selectedTag }
        try dispatcher.dispatch(.relabel, payload: "Fiction")
        try dispatcher.dispatch(.select, payload: 1)

        #expect(first.value == 1)
        #expect(second.value == 1)
    }

    @Test func aChangeBetweenTheReadAndTheTrackersInstallationLeavesLaterChangesTold() throws {
        // Observation installs a tracker after the code it tracks returns. A change committed in
        // between cannot reach that tracker; the changes after it must.
        let (dispatcher, store) = try makeStore()
        let told = LockedBox(0)
        withObservationTracking {
            _ = store.selectedTag
            try? dispatcher.dispatch(.select, payload: 1)  // after the read, before the installation
        } onChange: {
            told.withValue { $0 += 1 }
        }

        try dispatcher.dispatch(.select, payload: 0)

        #expect(told.value == 1)
    }

    @Test func aChangeFromAnotherThreadBetweenTheReadAndTheInstallationLeavesLaterChangesTold() throws {
        let (dispatcher, store) = try makeStore()
        let told = LockedBox(0)
        let read = Gate()
        let changed = Gate()
        let installed = Gate()
        let group = DispatchGroup()
        group.runOnNewThread {
            _ = withObservationTracking {
                let tag = store.selectedTag
                read.open()
                changed.wait()
                return tag
            } onChange: {
                told.withValue { $0 += 1 }
            }
            installed.open()
        }

        read.wait()
        try dispatcher.dispatch(.select, payload: 1)
        changed.open()
        installed.wait()
        try dispatcher.dispatch(.select, payload: 0)

        #expect(group.wait(timeout: .now() + hangGuard) == .success, "hung: the tracking thread did not end")
        #expect(told.value == 1)
    }

    @Test func theWholeStateReadOutsideTrackingKeepsChangingInPlace() throws {
        let (dispatcher, store) = try makeStore()
        _ = store.state

        try dispatcher.dispatch(.shelveBook, payload: "Dune")

        #expect(inPlaceShelves.value == [true])
    }

    @Test func theWholeStateTrackedChangesACopyUntilItsTrackerFires() throws {
        let (dispatcher, store) = try makeStore()
        let told = track { store.state }

        try dispatcher.dispatch(.shelveBook, payload: "Dune")
        try dispatcher.dispatch(.shelveBook, payload: "Emma")

        #expect(told.value == 1)
        #expect(inPlaceShelves.value == [false, true], "an Equatable state is compared only while tracked")
    }

    @Test func aBigValueTrackedThroughTheStoreIsCopiedOnlyWhileATrackerIsInstalled() throws {
        let (dispatcher, store) = try makeStore()
        let told = track { store.shelf }

        for title in ["Dune", "Emma", "Kim"] { try dispatcher.dispatch(.shelveBook, payload: title) }

        #expect(told.value == 1)
        #expect(inPlaceShelves.value == [false, true, true], "once told, the tracker keeps no old value")
        #expect(store.shelf.books == ["Dune", "Emma", "Kim"])
    }

    @Test func aLeafTrackedThroughTheStoreKeepsItsContainerChangingInPlace() throws {
        let (dispatcher, store) = try makeStore()
        let told = track { store[dynamicMember: \.shelf.books.count] }

        try dispatcher.dispatch(.shelveBook, payload: "Dune")

        #expect(told.value == 1)
        #expect(inPlaceShelves.value == [true], "only the count is kept from before")
    }

    @Test func aChainThroughTheStoreTracksItsFirstValueAndTheSubscriptTracksTheLeaf() throws {
        let (dispatcher, store) = try makeStore()
        try dispatcher.dispatch(.shelveBook, payload: "Dune")
        let chain = track { store.shelf.books.count }
        let leaf = track { store[dynamicMember: \.shelf.books.count] }

        try dispatcher.dispatch(.retitleFirst, payload: "Dune Messiah")

        #expect(chain.value == 1, "`store.shelf.books.count` tracks the whole shelf")
        #expect(leaf.value == 0, "the count did not change")
    }

    @Test func aValueThatIsNotEquatableIsToldWithoutKeepingItsOldValue() throws {
        let (dispatcher, store) = try makeStore()
        let told = track { store.looseShelf }

        try dispatcher.dispatch(.shelveBook, payload: "Dune")

        #expect(told.value == 1)
        #expect(inPlaceShelves.value == [true], "nothing to compare, so nothing kept")
    }

    @Test func aBigValueTrackedByItsCountStaysInPlaceAndIsToldWhenTheCountChanges() throws {
        let (dispatcher, store) = try makeStore()
        let told = track { store[\.shelf, trackedBy: \.shelf.books.count] }

        try dispatcher.dispatch(.shelveBook, payload: "Dune")
        let again = track { store[\.shelf, trackedBy: \.shelf.books.count].books }
        try dispatcher.dispatch(.retitleFirst, payload: "Dune Messiah")

        #expect(told.value == 1)
        #expect(again.value == 0, "the count did not change")
        #expect(inPlaceShelves.value == [true])
        #expect(store[\.shelf, trackedBy: \.shelf.books.count].books == ["Dune Messiah"])
    }

    @Test func trackersOnManyThreadsRacingCommitsAreEachToldOfTheChangeAfterThem() throws {
        // Readers install trackers on three threads while a fourth commits; then each installs
        // one more, and one change must reach all three.
        let (dispatcher, store) = try makeStore()
        let lastTold = LockedBox<[LockedBox<Int>]>([])
        runOnThreads(4) { index in
            if index == 3 {
                for round in 0..<300 { try? dispatcher.dispatch(.select, payload: round % 2) }
                return
            }
            // NB: a bounded number: a tracker lives until a change fires it.
            for _ in 0..<300 { _ = track { store.selectedTag } }
            let told = track { store.selectedTag }
            lastTold.withValue { $0.append(told) }
        }

        try dispatcher.dispatch(.select, payload: nil)

        #expect(lastTold.value.map(\.value) == [1, 1, 1])
    }
}
