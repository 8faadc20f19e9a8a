import Testing

@testable import Fluxion

/// The admission table, row by row: where each arrival goes, given the facts about its caller.
@Suite struct AdmissionTests {
    typealias Facts = Admission.Facts

    /// Facts where the named ones hold, and no other.
    private static func facts(_ holding: WritableKeyPath<Facts, Bool>...) -> Facts {
        var facts = Facts()
        for fact in holding { facts[keyPath: fact] = true }
        return facts
    }

    static let rows: [(Admission.Arrival, Facts, Admission.Decision, String)] = [
        (
            .action(exclusively: false), facts(\.holdsOpenTransaction, \.actsForHolder), .joinTransaction,
            "a handler's dispatch"
        ),
        (.action(exclusively: false), facts(\.actsForHolder), .queueBehindStep, "an observer's dispatch"),
        (
            .action(exclusively: false), facts(\.actsForHolder, \.isInCancelledTask), .queueBehindStep,
            "a dispatch under way finishes with what it queues"
        ),
        (
            .action(exclusively: false), facts(\.actsForHolder, \.holderIsBetweenActions, \.isSuspended),
            .waitForRelease, "a read's dispatch, suspended"
        ),
        (
            .action(exclusively: true), facts(\.actsForHolder, \.holderIsBetweenActions, \.isSuspended),
            .queueBehindStep, "a read's exclusive dispatch"
        ),
        (
            .action(exclusively: false), facts(\.isInCancelledTask, \.isTurnFree), .refuse(.cancelledTask),
            "a cancelled task's new dispatch"
        ),
        (
            .action(exclusively: false), facts(\.isTaskWhilePastIsShown, \.isSuspended), .holdForPresent,
            "a task's dispatch in the past, suspended too"
        ),
        (.action(exclusively: false), facts(\.isSuspended, \.isTurnFree), .waitForRelease, "suspended"),
        (.action(exclusively: true), facts(\.isSuspended, \.isTurnFree), .run, "bypassing the suspension"),
        (.action(exclusively: false), facts(\.isTurnFree), .run, "the turn is free"),
        (.action(exclusively: false), Facts(), .waitForTurn, "another thread holds the turn"),
        (.batch, facts(\.actsForHolder, \.isInCancelledTask), .runInsideTurn, "a batch inside the turn"),
        (.batch, facts(\.isInCancelledTask, \.isTurnFree), .refuse(.cancelledTask), "a cancelled task's batch"),
        (.batch, facts(\.isTurnFree), .run, "a batch takes the free turn"),
        (.read, facts(\.actsForHolder), .runInsideTurn, "a read inside the turn"),
        (.read, facts(\.isInCancelledTask, \.isTurnFree), .run, "a cancelled task reads"),
        (.read, Facts(), .waitForTurn, "a read waits for the turn"),
        (
            .move, facts(\.actsForHolder, \.holdsOpenTransaction), .refuse(.moveInsideDispatch),
            "a move from a handler or a batch"
        ),
        (.move, facts(\.isTurnFree), .run, "a move takes a turn of its own"),
        (.move, Facts(), .waitForTurn, "a move waits for the turn"),
        (.taskStart, facts(\.runsStep, \.isInCancelledTask), .startOnCommit, "dispatchTask from a step"),
        (.taskStart, facts(\.isInCancelledTask), .refuse(.cancelledTask), "a cancelled task starts one"),
        (.taskStart, Facts(), .startNow, "dispatchTask from outside"),
        (.released, facts(\.isInCancelledTask), .refuse(.cancelledTask), "a held dispatch of a task cancelled since"),
        (.released, Facts(), .run, "a held or waiting dispatch, its turn come"),
        (
            .step, facts(\.isPastShown, \.actsForHolder), .refuse(.pastIsShown),
            "an action reaches a journal showing the past"
        ),
        (.step, facts(\.actsForHolder), .run, "an action reaches a journal showing the present, or moving"),
    ]

    @Test(arguments: rows.indices) func eachRowOfTheTableDecides(_ row: Int) {
        let (arrival, facts, decision, _) = Self.rows[row]
        #expect(Admission.decide(arrival, facts) == decision, "\(Self.rows[row].3)")
    }
}
