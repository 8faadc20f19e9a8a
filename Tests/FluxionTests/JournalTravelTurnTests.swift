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
}
