import Foundation
import Testing

/// Random programs that mix every feature, each compared with the model after every operation.
///
/// `FLUXION_MODEL_PROGRAMS` (default 300) and `FLUXION_MODEL_SEED` (default: a fixed one) choose how
/// many programs run, and from which seed; a failure prints its program, shrunk, as a test to paste.
/// `FLUXION_MODEL_UNAVOIDED` (`all`, or switch names separated by commas) turns switches of `OpenDefects` off:
/// the run then meets those defects (to find them, or to check their fix before removing the switches).
@Suite struct ModelProgramTests {
    static let environment = ProcessInfo.processInfo.environment
    static let programs = environment["FLUXION_MODEL_PROGRAMS"].flatMap(Int.init) ?? 300
    static let seed = environment["FLUXION_MODEL_SEED"].flatMap(UInt64.init) ?? 20_261_128
    static let length = environment["FLUXION_MODEL_LENGTH"].flatMap(Int.init) ?? 24
    static let avoiding: OpenDefects = {
        let names = (environment["FLUXION_MODEL_UNAVOIDED"] ?? "").split(separator: ",").map(String.init)
        if names == ["all"] { return [] }
        return OpenDefects.all.subtracting(OpenDefects(names.compactMap { OpenDefects.named[$0] }))
    }()

    @Test func randomProgramsKeepEveryPromise() async {
        let workers = 2
        let share = (Self.programs + workers - 1) / workers
        let failures = await withTaskGroup(of: String?.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    let seed = Self.seed &+ UInt64(worker * share)
                    let count = min(share, max(Self.programs - worker * share, 0))
                    return await Self.searchOnThread(seed: seed, count: count)
                }
            }
            var failures: [String] = []
            for await failure in group { if let failure { failures.append(failure) } }
            return failures
        }
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
    }

    private static func searchOnThread(seed: UInt64, count: Int) async -> String? {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                let found = ModelCheck.search(seed: seed, count: count, length: length, avoiding: avoiding)
                continuation.resume(
                    returning: found.map { found in
                        """
                        A model program failed (seed \(found.seed)), shrunk to:

                        @Test func modelProgramFromSeed\(found.seed)() async {
                            await expectModelHolds(\(found.program))
                        }

                        \(found.failure)
                        """
                    })
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}

/// Fails the test where `program` and the model part.
func expectModelHolds(_ program: Program, sourceLocation: SourceLocation = #_sourceLocation) async {
    if let failure = await ModelCheck.check(program) {
        Issue.record(Comment(rawValue: "\(failure)"), sourceLocation: sourceLocation)
    }
}
