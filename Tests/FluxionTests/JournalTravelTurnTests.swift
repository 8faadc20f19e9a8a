import Foundation
import Testing

@testable import Fluxion

/// A time-travel move happens all at once: the states are computed and installed in one dispatch turn.
@Suite struct JournalTravelTurnTests {
    @Test func aStepThatCommitsWhileAMoveWaitsForTheTurnIsMovedToo() throws {
        let dispatcher = try makeShelfDispatcher()
        try dispatcher.register(LampStore.self)
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.signIn, payload: Owner(name: "Ada", password: "pw"))
        // NB: the hook runs on the travelling thread before the move takes the turn: a dispatch commits in between.
        journal.beforeMoveTakesTurn = { try? dispatcher.dispatch(.toggleLamp) }

        try journal.travel(to: 1)

        #expect(journal.step == 1)
        #expect(journal.steps == 0...3)
        #expect(try dispatcher.store(ShelfStore.self).state == Shelf(books: ["Dune"]))
        #expect(try !dispatcher.store(LampStore.self).state.isOn)  // as after step 1, not as in the present
        journal.beforeMoveTakesTurn = nil
        try journal.returnToPresent()
        #expect(try dispatcher.store(LampStore.self).state.isOn)
    }

    @Test func aMoveFromAnObserverIsRefusedWithAnErrorThatSaysWhatTheCallerDid() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        let refusal = LockedBox<JournalError?>(nil)
        let token = try dispatcher.store(ShelfStore.self).observe { _ in
            do { try journal.stepBack() } catch let error as JournalError { refusal.value = error } catch {}
        }
        defer { token.cancel() }

        try dispatcher.dispatch(.shelve, payload: "Emma")

        #expect(refusal.value == .travelDuringDispatch(move: "step back"))
        #expect(
            refusal.value?.description
                == "cannot step back from inside a dispatch (a handler, an observer, a middleware or a batch's "
                + "closure): time travel takes a dispatch turn of its own; step back once the dispatch has returned")
        #expect(!journal.isTravelling)
        #expect(try dispatcher.store(ShelfStore.self).state == Shelf(books: ["Dune", "Emma"]))
    }

    @Test func aMoveInsideABatchIsRefusedAndTheBatchGoesOn() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")

        try dispatcher.batch { batch in
            #expect(throws: JournalError.travelDuringDispatch(move: "return to the present")) {
                try journal.returnToPresent()
            }
            try batch.dispatch(.shelve, payload: "Emma")
        }

        #expect(journal.records.map(\.name) == ["journalShelve", AnyAction.batchName])
        #expect(try dispatcher.store(ShelfStore.self).state == Shelf(books: ["Dune", "Emma"]))
    }
}
