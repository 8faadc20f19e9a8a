/// The combinations that still have an open defect, one switch each: while a switch is on, the
/// generator writes no program with its combination, and the shrinker keeps none. Each has a
/// known-issue test (`KnownIssueTests.swift`) holding the shrunk program that found it; the fix of a
/// defect removes its switch here, and its test's `withKnownIssue`.
struct OpenDefects: OptionSet, Sendable {
    let rawValue: Int

    /// A replay runs a follow-up a replayed handler queues, and the journal's line for it too.
    static let replayOfFollowUps = OpenDefects(rawValue: 1 << 0)
    /// A replay of a store whose state is not `Codable` (store 3): a changed state reports "all
    /// matched", and a step that cannot replay (a batch with a mutation, a resume) throws instead of
    /// setting the states.
    static let replayOfStatesThatAreNotCodable = OpenDefects(rawValue: 1 << 9)
    /// An effect of a step `resumeDiscardingLaterSteps()` dropped ends unrecorded in the file: the file's
    /// replay lists it as unfinished.
    static let effectsOfDroppedSteps = OpenDefects(rawValue: 1 << 11)
    /// A replay starts the task a store's factory starts, live.
    static let replaysStartingFactoryTasks = OpenDefects(rawValue: 1 << 13)
    /// A second `Journal` on a dispatcher replaces the first, silently.
    static let secondJournals = OpenDefects(rawValue: 1 << 14)

    /// Every switch: what the random run avoids today.
    static let all: OpenDefects = [
        .replayOfFollowUps, .replayOfStatesThatAreNotCodable,
        .effectsOfDroppedSteps, .replaysStartingFactoryTasks, .secondJournals,

    ]

    /// Whether `operation`, taken after `model`, meets a combination switched off here.
    func excludes(_ operation: Operation, after model: ReferenceModel) -> Bool {
        let checks: [(OpenDefects, Bool)] = [
            (.replayOfStatesThatAreNotCodable, operation.reachesStore(3)),
            (.secondJournals, operation == .attachSecondJournal),
            (
                .effectsOfDroppedSteps,
                operation == .resumeDiscardingLaterSteps
                    && model.steps.contains {
                        $0.sequence > model.position ?? .max && $0.effects.contains { $0.outcome == nil }
                    }
            ),
        ]
        return checks.contains { contains($0.0) && $0.1 }
    }

    /// Whether the program's final replay meets a switched-off combination, so is not checked.
    func skipsReplay(of program: Program) -> Bool {
        (contains(.replayOfFollowUps) && program.operations.contains(where: \.queuesFromHandlers))
            || (contains(.replayOfStatesThatAreNotCodable) && program.divergence == 3)
    }

    /// Whether no operation of `program` meets a switched-off combination.
    func permits(_ program: Program) -> Bool {
        var model = ReferenceModel()
        for operation in program.operations {
            if excludes(operation, after: model) { return false }
            model.apply(operation)
        }
        return !(program.replays && skipsReplay(of: program))
            && !(contains(.replaysStartingFactoryTasks) && program.factoryStartsTask && program.replays)
    }
}
