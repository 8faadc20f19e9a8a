import Foundation
import Testing

@testable import Fluxion

/// How a journal learns what a step changed without observing the stores: from each store's commit count.
@Suite(.timeLimit(.minutes(10))) struct JournalRecordingTests {
    @Test func aJournalAddsNoObserverAndKeepsChangesInPlace() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        let shelf = try dispatcher.store(ShelfStore.self)

        try dispatcher.dispatch(.shelve, payload: "Dune")

        #expect(
            shelf.lock.withLock { shelf.observers.isEmpty },
            "the journal needs no observer, which would force a copy of the state")
        #expect(journal.records.last?.changes.first?.diff == [#"books[0]: + "Dune""#])
    }

    @Test func eachStepIsDatedWhenItIsRecorded() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)

        let before = Date()
        try dispatcher.dispatch(.shelve, payload: "Dune")
        let between = Date()
        try dispatcher.dispatch(.shelve, payload: "Emma")
        let after = Date()

        let times = journal.records.map(\.time)
        #expect(times.count == 2)
        #expect(before <= times[0] && times[0] <= between, "read from the real-time clock Date() reads")
        #expect(between <= times[1] && times[1] <= after)
    }

    @Test func theRealTimeClockReadsWhatDateReads() {
        let misses = (0..<10_000).filter { _ in
            let before = Date()
            let now = Date.readingRealTimeClock()
            let after = Date()
            return !(before <= now && now <= after)
        }
        #expect(misses.isEmpty, "a step's time is what Date() reads at that moment")
    }

    @Test func recordsTheSameStepsWithMiddlewareOrWithout() throws {
        func session(_ dispatcher: Dispatcher) throws -> [String] {
            let journal = try Journal(recording: dispatcher)
            try dispatcher.dispatch(.shelve, payload: "Dune")
            try dispatcher.dispatch(.signIn, payload: Owner(name: "Ada", password: "pw"))
            try dispatcher.batch { batch in
                try batch.dispatch(.shelve, payload: "Emma")
                try batch.mutate(TallyReadingStore.self) { $0.count = 10 }
            }
            return journal.records.map(\.description)
        }
        let bare = try makeShelfDispatcher()
        let withMiddleware = try makeShelfDispatcher()
        withMiddleware.addMiddleware(ClosureMiddleware(observesChanges: false) { action, next in try next(action) })

        let recorded = try session(bare)

        #expect(try session(withMiddleware) == recorded)
        #expect(recorded.count == 3)
        #expect(recorded[2].contains("TallyReadingStore.count: 1 → 10"))
    }

    @Test func recordsTheActionAsItReachesTheStoresPastEveryMiddleware() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        // NB: added after the journal, it still runs before the action reaches the stores, and the journal.
        dispatcher.addMiddleware(
            ClosureMiddleware(observesChanges: false) { action, next in
                try next(AnyAction(name: action.name, payload: "\(action.payload)!"))
            })

        try dispatcher.dispatch(.shelve, payload: "Dune")

        #expect(journal.records.map(\.action) == ["journalShelve(Dune!)"])
        #expect(journal.records.first?.changes.first?.diff == [#"books[0]: + "Dune!""#])
    }

    @Test func aStoreFirstMadeByABatchMutationIsRecordedFromItsFirstState() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)

        try dispatcher.batch { batch in
            try batch.mutate(TallyReadingStore.self) { $0.count = 5 }
        }

        #expect(journal.records.first?.changes.map(\.diff) == [["count: 0 → 5"]])
    }

    @Test func aChangeTheJournalDidNotSeeIsNotPutInTheNextStepsDiff() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "A")
        try dispatcher.dispatch(.shelve, payload: "B")
        try journal.stepBack()
        journal.resumeDiscardingLaterSteps()

        try dispatcher.dispatch(.shelve, payload: "C")

        let last = try #require(journal.records.last)
        #expect(last.changes.map(\.diff) == [[#"books[1]: + "C""#], ["count: 1 → 2"]])
    }

    @Test func aStoreChangedWhileTheJournalWasStoppedIsSeenAfresh() throws {
        let dispatcher = try makeShelfDispatcher()
        let first = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "A")
        first.stop()
        try dispatcher.dispatch(.shelve, payload: "B")
        let second = try Journal(recording: dispatcher)

        try dispatcher.dispatch(.shelve, payload: "C")

        #expect(second.records.first?.changes.first?.diff == [#"books[2]: + "C""#])
    }

    @Test func anActionAMiddlewareDroppedIsNotRecorded() throws {
        let dispatcher = try makeShelfDispatcher()
        dispatcher.addMiddleware(
            ClosureMiddleware(observesChanges: false) { action, next in
                "\(action.payload)" == "skip" ? [] : try next(action)
            })
        let journal = try Journal(recording: dispatcher)

        try dispatcher.dispatch(.shelve, payload: "skip")
        try dispatcher.dispatch(.shelve, payload: "Dune")

        #expect(journal.records.map(\.action) == ["journalShelve(Dune)"])
    }
}
