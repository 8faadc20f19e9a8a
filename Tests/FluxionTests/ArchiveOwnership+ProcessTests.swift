import Fluxion
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One owner per directory across processes: `FluxionCrashWriter ledger` is the other process (see its
/// `LedgerOwner.swift`): it owns the directory from its "ready" line until it says "released" or is killed.
@Suite(.timeLimit(.minutes(10))) struct ArchiveOwnershipProcessTests {
    private func startLedgerOwner(in directory: URL) throws -> RunningWriter {
        let writer = try #require(crashWriterURL(), "FluxionCrashWriter was not built next to the test binary")
        return try RunningWriter.start(writer, arguments: ["ledger", directory.path])
    }

    @Test func aDirectoryAnotherProcessOwnsIsRefusedHereUntilThatProcessCrashes() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let storage = FileStateStorage(directory: directory)
        let other = try startLedgerOwner(in: directory)
        defer { #expect(!other.hung.value, "the other process hung") }
        #expect(await other.readLine() == "ready")

        #expect(
            throws: PersistenceError.locationInUse(
                location: "the directory \(canonicalPath(of: directory))", byAnotherProcess: true)
        ) {
            try makeLedgerDispatcher(storage)
        }

        kill(other.process.processIdentifier, SIGKILL)
        await other.waitUntilExit()
        #expect(other.process.terminationReason == .uncaughtSignal)
        let here = try makeLedgerDispatcher(storage)  // NB: the system released the crashed process's lock
        await here.shutdown()
    }

    @Test func anotherProcessIsRefusedADirectoryThisOneOwnsUntilItIsShutDown() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let here = try makeLedgerDispatcher(FileStateStorage(directory: directory))

        let refused = try startLedgerOwner(in: directory)
        defer { #expect(!refused.hung.value, "the refused process hung: it was not refused") }
        await refused.waitUntilExit()
        #expect(refused.process.terminationStatus == 4)
        #expect(refused.errorOutput().contains("Another process persists to the directory"))

        await here.shutdown()
        let other = try startLedgerOwner(in: directory)
        defer { #expect(!other.hung.value, "the other process hung") }
        #expect(await other.readLine() == "ready")
        other.send("salary")
        #expect(await other.readLine() == "released")
        await other.waitUntilExit()
        #expect(other.process.terminationStatus == 0)
    }

    /// The lost-ledger case of issue 43 across two processes: the other process lets its dispatcher go
    /// while its import runs; this one is refused meanwhile; the late import saves as the owner; once the
    /// other process's dispatcher is freed, this one opens the directory, records and flushes, and a
    /// third dispatcher reads everything back.
    @Test func aDispatcherLetGoWhileItsImportRunsInAnotherProcessLosesNothing() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let storage = FileStateStorage(directory: directory)
        do {
            let seed = try makeLedgerDispatcher(storage)
            try seed.dispatch(.recordEntry, payload: "opening balance")
            await seed.shutdown()
        }
        let other = try startLedgerOwner(in: directory)
        defer { #expect(!other.hung.value, "the other process hung") }
        #expect(await other.readLine() == "ready opening balance")

        #expect(throws: PersistenceError.self) { try makeLedgerDispatcher(storage) }

        other.send("salary")  // the late import
        #expect(await other.readLine() == "released")
        await other.waitUntilExit()
        #expect(other.process.terminationStatus == 0)

        let second = try makeLedgerDispatcher(storage)
        #expect(try second.store(BankLedgerStore.self).state.entries == ["opening balance", "salary"])
        try second.dispatch(.recordEntry, payload: "rent")
        second.flush()
        await second.shutdown()

        #expect(try await restoredLedger(from: storage) == ["opening balance", "salary", "rent"])
    }

    #if os(Linux)
    /// A child this process starts holds a copy of the lock file's descriptor until it executes its
    /// program; a `dup` here is that copy. Shut down meanwhile, the location is free for the next claim.
    @Test func aChildStartingWhileTheDispatcherShutsDownDoesNotKeepTheLocation() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let storage = FileStateStorage(directory: directory)
        let first = try makeLedgerDispatcher(storage)
        let lockFile = canonicalPath(of: directory) + "/.fluxion.lock"
        let held = try #require(openDescriptor(of: lockFile), "no descriptor of \(lockFile) is open")
        let childsCopy = dup(held)
        defer { close(childsCopy) }

        await first.shutdown()
        let second = try makeLedgerDispatcher(storage)  // NB: refused as "another process" when only closed
        await second.shutdown()
    }

    /// The descriptor of this process open on `path`, found through `/proc/self/fd`.
    private func openDescriptor(of path: String) -> Int32? {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.lazy.compactMap(Int32.init).first {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path
        }
    }
    #endif
}
