import Fluxion
import Testing

/// Stepping past either end of a journal says so in words (issue 25.8).
@Suite(.timeLimit(.minutes(10))) struct JournalStepEdgeTests {
    @Test func steppingBackFromTheOldestStepSaysItIsTheOldest() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try journal.stepBack()

        #expect(throws: JournalError.atOldestStep(0)) { try journal.stepBack() }
        #expect(journal.step == 0, "the stores stay where they were")
        #expect(
            JournalError.atOldestStep(0).description
                == "cannot step back: the stores already show the oldest step the journal holds (step 0)")
    }

    @Test func steppingBackInAnEmptyJournalSaysItIsTheOldest() throws {
        let journal = try Journal(recording: try makeShelfDispatcher())
        #expect(throws: JournalError.atOldestStep(0)) { try journal.stepBack() }
    }

    @Test func steppingForwardAtThePresentSaysItIsTheNewest() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.shelve, payload: "Emma")

        #expect(throws: JournalError.atNewestStep(2)) { try journal.stepForward() }
        try journal.stepBack()
        try journal.stepForward()
        #expect(throws: JournalError.atNewestStep(2)) { try journal.stepForward() }
        #expect(!journal.isTravelling)
        #expect(
            JournalError.atNewestStep(2).description
                == "cannot step forward: the stores already show the newest step, the present (step 2)")
    }

    @Test func travellingToAStepOutsideTheJournalStillNamesTheSteps() throws {
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try journal.travel(to: 0)

        #expect(throws: JournalError.noSuchStep(-1, range: 0...1)) { try journal.travel(to: -1) }
    }
}
