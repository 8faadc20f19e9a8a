import Foundation

/// Runs a program on a real dispatcher and on the model side by side, comparing after each operation.
enum ModelCheck {
    /// Where a program first broke a promise.
    struct Failure: Error, CustomStringConvertible {
        /// The operation after which the worlds differed (`operations.count` for the final replay).
        let index: Int
        let operation: String
        let differences: [String]

        var description: String {
            "after operation \(index) (\(operation)):\n" + differences.joined(separator: "\n")
        }

        /// Whether the real side hung: its tasks did not settle within the ``HangGuard``.
        var isHang: Bool { differences.contains { $0.contains("hung: ") } }
    }

    /// Runs `program` on this thread, which may block: never a thread of Swift's global executor.
    static func run(_ program: Program) -> Failure? {
        let real: RealRun
        do { real = try RealRun() } catch {
            return Failure(index: -1, operation: "setting up", differences: ["\(error)"])
        }
        let failure = compare(program, real)
        let hung = real.close()
        if failure == nil, let hung {
            return Failure(index: program.operations.count, operation: "close", differences: [hung])
        }
        return failure
    }

    /// Applies `program` to `real` and to the model, comparing after each operation, then replays.
    private static func compare(_ program: Program, _ real: RealRun) -> Failure? {
        var model = ReferenceModel()
        for (index, operation) in program.operations.enumerated() {
            model.apply(operation)
            let outcome = real.apply(operation, drainers: model.tasks.values.count { $0.phase == .draining })
            let isFlush = operation == .flush || operation.isShutdown
            let differences = real.world(outcome: outcome, withArchive: isFlush).differences(from: model.world)
            if !differences.isEmpty {
                return Failure(index: index, operation: "\(operation)", differences: differences)
            }
        }
        guard program.replays else { return nil }
        let replayed = real.replayOutcome(divergence: program.divergence, factoryStartsTask: program.factoryStartsTask)
        let expected = model.replayOutcome(divergence: program.divergence)
        guard replayed == expected else {
            return Failure(
                index: program.operations.count, operation: "replay",
                differences: zip(replayed, expected).filter { $0 != $1 }.map { "real:  \($0)\n    model: \($1)" })
        }
        return nil
    }

    /// Runs `program` on a thread of its own, and awaits its outcome.
    static func check(_ program: Program) async -> Failure? {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: run(program)) }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Runs `count` programs from `seed` on one thread; the first failure, shrunk, with its seed.
    static func search(seed: UInt64, count: Int, length: Int, avoiding: OpenDefects) -> (
        seed: UInt64, program: Program, failure: Failure
    )? {
        for offset in 0..<UInt64(count) {
            var generator = ProgramGenerator(seed: seed &+ offset, avoiding: avoiding)
            let program = generator.program(length: length)
            if let failure = run(program) {
                let (shrunk, shrunkFailure) = Shrinker.shrink(program, failure, avoiding: avoiding)
                return (seed &+ offset, shrunk, shrunkFailure)
            }
        }
        return nil
    }
}
