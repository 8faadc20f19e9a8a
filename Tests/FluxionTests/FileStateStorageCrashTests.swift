import Fluxion
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The archive `FluxionCrashWriter` writes: every item equals the generation.
private struct CrashArchive: Decodable {
    struct State: Decodable {
        let generation: Int
        let items: [Int]
    }

    let version: Int
    let state: State
}

// NB: the time limits are hang guards: with three CPU-bound processes beside the suite, the test took 2 minutes.
@Suite(.timeLimit(.minutes(10)), .onThreadsOfItsOwn) struct FileStateStorageCrashTests {
    static let kills = 200
    static let itemCount = 20_000
    /// Where the kills run: a serial queue has threads of its own (`DispatchQueue.global()` shares Swift's
    /// global executor's on Linux, so a kill there waited for the tests running on them).
    static let killer = DispatchQueue(label: "FileStateStorageCrashTests.killer")

    /// Runs `FluxionCrashWriter`, which saves a ~100 KB state in a loop through
    /// ``FileStateStorage``, and kills it with SIGKILL at a random moment,
    /// 200 times; after each kill the archive must decode whole, as the old
    /// generation or a newer one, never torn.
    ///
    /// The test waits for the writer's "ready" line, which it prints once it
    /// has restored the archive, then sets a timer that kills it 0–25 ms later
    /// — the moment of the crash, drawn at random — and waits for it to exit.
    /// Nothing sleeps.
    ///
    /// About 8 s here. Under ThreadSanitizer the writer is slower, so most kills
    /// land in its first write (between creating the temporary file and the
    /// rename): the loop still runs in full, in about 23 s, and still checks
    /// what matters most. On a busy machine, minutes.
    @Test(.timeLimit(.minutes(10)))
    func anArchiveKilledMidWriteIsWholeOldOrNew() async throws {
        let writer = try #require(crashWriterURL(), "FluxionCrashWriter was not built next to the test binary")
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let storage = FileStateStorage(directory: directory)
        try storage.save(archive(CrashStateSeed(generation: 0, items: [])), key: "crash")

        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(state: seed)
        let started = ContinuousClock.now
        var generation = 0
        var kills = 0
        var restartsThatWrote = 0
        for run in 0..<Self.kills {
            let context = Comment("run \(run), seed \(seed)")
            let process = Process()
            process.executableURL = writer
            process.arguments = [directory.path, String(Self.itemCount)]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()

            let running = RunningWriter(process: process, output: output.fileHandleForReading)
            let ready = await running.readLine()
            guard ready == "ready \(generation)" else {
                await running.waitUntilExit()
                let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                Issue.record(
                    "\(context): the writer said \(ready.debugDescription), expected generation \(generation): \(message)"
                )
                return
            }
            let pid = process.processIdentifier
            let crashMoment = DispatchTime.now() + .microseconds(Int.random(in: 0..<25_000, using: &random))
            Self.killer.asyncAfter(deadline: crashMoment) { kill(pid, SIGKILL) }
            await running.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, context)
            kills += 1

            let data = try #require(try storage.load(key: "crash"), context)
            let archive = try JSONDecoder().decode(CrashArchive.self, from: data)
            #expect(archive.version == 1, context)
            #expect(archive.state.generation >= generation, context)
            if archive.state.generation > 0 {
                #expect(archive.state.items.count == Self.itemCount, context)
                #expect(archive.state.items.allSatisfy { $0 == archive.state.generation }, context)
            }
            if archive.state.generation > generation { restartsThatWrote += 1 }
            generation = archive.state.generation
        }
        #expect(kills == Self.kills)
        #expect(!fileNames(in: directory).contains { $0.contains(".corrupt-") })
        let elapsed = ContinuousClock.now - started
        print(
            "crash test: \(kills) kills, \(generation) generations written, \(restartsThatWrote) runs wrote",
            "at least one, in \(elapsed), seed \(seed)")
    }
}

/// The seed archive's state, in the writer's schema.
private struct CrashStateSeed: Codable {
    let generation: Int
    let items: [Int]
}
