/// The combinations that still have an open defect, one switch each: while a switch is on, the
/// generator writes no program with its combination, and the shrinker keeps none. A defect the model
/// finds and a change does not fix gets a switch here, and a known-issue test (the shrunk program in
/// `withKnownIssue`); its fix removes both, and the test stays, unwrapped, as the fix's regression test
/// (`SeamRegressionTests.swift` holds those of 2026-11-28).
///
/// Empty today: every defect the model found on the code of 2026-11-28 is fixed.
struct OpenDefects: OptionSet, Sendable {
    let rawValue: Int

    /// Every switch: what the random run avoids today.
    static let all: OpenDefects = []

    /// Whether `operation`, taken after `model`, meets a combination switched off here.
    func excludes(_ operation: Operation, after model: ReferenceModel) -> Bool {
        let checks: [(OpenDefects, Bool)] = []
        return checks.contains { contains($0.0) && $0.1 }
    }

    /// Whether the program's final replay meets a switched-off combination, so is not checked.
    func skipsReplay(of program: Program) -> Bool {
        false
    }

    /// Whether no operation of `program` meets a switched-off combination.
    func permits(_ program: Program) -> Bool {
        var model = ReferenceModel()
        for operation in program.operations {
            if excludes(operation, after: model) { return false }
            model.apply(operation)
        }
        return !(program.replays && skipsReplay(of: program))
    }
}
