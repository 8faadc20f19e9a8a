import Foundation
import Testing

@testable import Fluxion

/// Replay compares values, not text: a set's elements, and a dictionary's entries, may be written in any
/// order (each process, and each collection, hashes with its own seed), and still match.
// NB: the time limit is a hang guard: with three CPU-bound processes beside the suite, a test here took a minute.
@Suite(.timeLimit(.minutes(10))) struct JournalReplayValueTests {
    /// The names a session enrolls.
    private static let names = ["Ada", "Grace", "Alan", "Barbara", "Edsger", "Anita"]

    /// Records a session into `url`: every name enrolled, and a pin set.
    @discardableResult
    private func recordSession(
        to url: URL?, equatable: Bool? = nil, redacting keys: Set<String> = []
    ) throws -> Journal {
        let dispatcher = try makeRosterDispatcher(equatable: equatable)
        let journal = try Journal(recording: dispatcher, writingTo: url, redactingKeys: keys)
        try dispatcher.dispatch(.setPin, payload: 4711)
        for name in Self.names { try dispatcher.dispatch(.enroll, payload: name) }
        journal.stop()
        return journal
    }

    @Test(arguments: [true, false], [true, false])
    func aStateHoldingSetsAndDictionariesReplaysClean(equatable: Bool, fromFile: Bool) throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let journal = try recordSession(to: url, equatable: equatable)

        let fresh = try makeRosterDispatcher(equatable: equatable)
        let report =
            fromFile ? try Journal.replay(contentsOf: url, into: fresh) : try journal.replay(into: fresh)

        #expect(report.allMatched, "\(report)")
        #expect(report.differingStores.isEmpty)
        #expect(report.replayed == Self.names.count + 1)
        if equatable {
            let state = try fresh.store(RosterStore.self).state
            #expect(state.tags == Set(Self.names))
            #expect(state.lastEnrolled == "Anita")  // not encoded, so not compared: the recording has not got it
        }
    }

    /// A journal of a small state — a set, a set of sets, a dictionary written as an array — as 1,000 other
    /// processes could have written it: each set's elements, and each dictionary's keys and values, in an
    /// order of its own; every one replays clean, the `Equatable` state and the other in turn.
    @Test func aThousandJournalsWrittenInOtherOrdersReplayClean() async throws {
        let recorded = try [true, false].map { equatable in
            let url = temporaryJournalURL()
            defer { try? FileManager.default.removeItem(at: url) }
            let dispatcher = try makeLineupDispatcher(equatable: equatable)
            let journal = try Journal(recording: dispatcher, writingTo: url)
            try dispatcher.dispatch(.fillLineup)
            journal.stop()
            return try lines(of: url)
        }

        // NB: a thousand replays take a second or more (a minute on a busy machine): on a thread of their own,
        // they leave Swift's global executor to the tests that run meanwhile. Not on `DispatchQueue.global()`:
        // on Linux its threads are the global executor's.
        let (texts, failures) = try await onNewThread { try replayReordered(recorded, seeds: 0..<1_000) }

        #expect(failures.isEmpty, "\(failures.count) of 1,000 did not match; the first: \(failures.first ?? "")")
        #expect(texts.count > 700)  // the orders differ indeed: 813 of the 2,304 there are
    }

    /// Another process, with its own hash seed, records the session; this one replays it.
    @Test(.enabled(if: testBinary != nil, "the tests run as an executable that can run one test (as on Linux)"))
    func aJournalWrittenByAnotherProcessReplaysClean() async throws {
        if let path = ProcessInfo.processInfo.environment[Self.childVariable] {
            try recordSession(to: URL(fileURLWithPath: path))  // in the child
            return
        }
        let url = temporaryJournalURL()
        let output = temporaryJournalURL().appendingPathExtension("out")
        defer {
            try? FileManager.default.removeItem(at: url)
            try? FileManager.default.removeItem(at: output)
        }

        let status = try await runChild(writingTo: url, output: output)

        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        try #require(status == 0, "the child exited with \(status): \(printed)")
        let report = try Journal.replay(contentsOf: url, into: makeRosterDispatcher())
        #expect(report.allMatched, "\(report)")
        #expect(report.replayed == Self.names.count + 1)
    }

    @Test(arguments: [true, false])
    func aSetOrADictionaryThatDiffersNamesWhatDiffers(equatable: Bool) throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try recordSession(to: url, equatable: equatable)
        try editLastState(in: url) { state in
            replaceEach("Anita", with: "Zed", under: ["tags", "names", "seats"], in: &state)
            state[member: "scores"]?[member: "Anita"] = .integer(6)
        }

        let report = try Journal.replay(contentsOf: url, into: makeRosterDispatcher(equatable: equatable))

        let mismatch = try #require(report.mismatch)
        #expect(mismatch.store == (equatable ? "RosterStore" : "RosterLogStore"))
        #expect(mismatch.line == Self.names.count + 2)
        #expect(
            mismatch.diff == [
                #"tags: - "Zed""#, #"tags: + "Anita""#, #"scores["Anita"]: 6 → 5"#, #"names[5]: "Zed" → "Anita""#,
                #"seats[Seat(row: 1, number: 2)]: "Zed" → "Anita""#,
            ])
        #expect(report.differingStores == [mismatch.store])
    }

    /// A difference that a diff read with `Mirror` cannot see is named from the states' encodings.
    @Test(arguments: [true, false])
    func aDifferenceNoMirrorShowsIsNamedFromTheEncoding(equatable: Bool) throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try recordSession(to: url, equatable: equatable)
        try editLastState(in: url) { state in state[member: "opaque"]?[member: "hidden"] = .integer(99) }

        let report = try Journal.replay(contentsOf: url, into: makeRosterDispatcher(equatable: equatable))

        #expect(report.mismatch?.diff == ["opaque.hidden: 99 → 0"])
    }

    /// Redacted values are not compared: not a pin (which no longer decodes as an `Int`; it was `nil`, so
    /// absent, in the state the store started from), nor a dictionary's entry (which decodes, but is not
    /// the value replayed); anything else is.
    @Test(arguments: [true, false])
    func redactedValuesAreNotComparedAndTheRestIs(equatable: Bool) throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try recordSession(to: url, equatable: equatable, redacting: ["pin", "0"])
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(#""pin":"‹redacted›""#) && text.contains(#""0":"‹redacted›""#))

        let clean = try Journal.replay(contentsOf: url, into: makeRosterDispatcher(equatable: equatable))
        #expect(clean.allMatched, "\(clean)")

        try editLastState(in: url) { state in replaceEach("Anita", with: "Zed", under: ["tags"], in: &state) }
        let report = try Journal.replay(contentsOf: url, into: makeRosterDispatcher(equatable: equatable))
        #expect(report.mismatch?.diff == [#"tags: - "Zed""#, #"tags: + "Anita""#])
    }
}

// MARK: Journals written otherwise

extension JournalReplayValueTests {
    /// The environment variable that makes the test a child that records the session into the file it names.
    fileprivate static let childVariable = "FLUXION_REPLAY_VALUES_CHILD_JOURNAL"

    /// The test binary, when it is an executable that runs one test when asked (as on Linux); on Apple
    /// platforms the tests are a bundle that `xctest` loads.
    fileprivate static let testBinary: URL? = {
        let url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var isDirectory: ObjCBool = false
        guard url.lastPathComponent.hasSuffix(".xctest"),
            FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isExecutableFile(atPath: url.path)
        else { return nil }
        return url
    }()

    /// Runs this suite's child test in a process of its own, without deterministic hashing; its exit status.
    private func runChild(writingTo url: URL, output: URL) async throws -> Int32 {
        let process = Process()
        process.executableURL = Self.testBinary
        process.arguments = [
            "--testing-library", "swift-testing", "--filter", "aJournalWrittenByAnotherProcessReplaysClean",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = nil
        environment[Self.childVariable] = url.path
        process.environment = environment
        try Data().write(to: output)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }

    /// Replays, for each seed, the recorded journal (the `Equatable` state's for an even seed) reordered
    /// with that seed; the texts replayed, and the reports that did not match.
    private func replayReordered(_ recorded: [[JSONValue]], seeds: Range<Int>) throws -> (Set<String>, [String]) {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        var texts: Set<String> = []
        var failures: [String] = []
        for seed in seeds {
            var generator = SplitMix64(state: UInt64(seed))
            let text = reordered(recorded[seed % 2], using: &generator)
            texts.insert(text)
            try Data(text.utf8).write(to: url)
            let report = try Journal.replay(contentsOf: url, into: makeLineupDispatcher(equatable: seed % 2 == 0))
            if !report.allMatched || !report.differingStores.isEmpty { failures.append("seed \(seed): \(report)") }
        }
        return (texts, failures)
    }

    /// The lines of a journal file, read.
    private func lines(of url: URL) throws -> [JSONValue] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { line in
            try Array(line.utf8).withUnsafeBytes { try JSONValue(parsing: $0) }
        }
    }

    /// The journal's text as another process could have written it: each set's elements, and each
    /// dictionary's keys and values written as an array, in another order, drawn from `generator`.
    private func reordered(_ lines: [JSONValue], using generator: inout SplitMix64) -> String {
        var text: [UInt8] = []
        for line in lines {
            reorder(line, under: nil, using: &generator).write(to: &text)
            text.append(UInt8(ascii: "\n"))
        }
        return String(decoding: text, as: UTF8.self)
    }

    private func reorder(_ value: JSONValue, under key: String?, using generator: inout SplitMix64) -> JSONValue {
        switch value {
        case .object(let members):
            var reordered: [String: JSONValue] = [:]
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                reordered[key] = reorder(member, under: key, using: &generator)
            }
            return .object(reordered)
        case .array(let elements):
            // NB: a set of sets' elements are sets too.
            let elements = elements.map { reorder($0, under: key == "teams" ? "tags" : nil, using: &generator) }
            switch key {
            case "tags", "groups", "members", "teams":
                return .array(elements.shuffled(using: &generator))
            case "seats", "numbers":
                let pairs = stride(from: 0, to: elements.count - 1, by: 2).map { [elements[$0], elements[$0 + 1]] }
                return .array(pairs.shuffled(using: &generator).flatMap { $0 })
            default:
                return .array(elements)
            }
        default:
            return value
        }
    }

    /// Rewrites the state the journal's last line recorded.
    private func editLastState(in url: URL, _ edit: (inout JSONValue) -> Void) throws {
        var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        var line = try Array(lines[lines.count - 1].utf8).withUnsafeBytes { try JSONValue(parsing: $0) }
        guard case .array(var changes)? = line[member: "changes"], var state = changes[0][member: "after"] else {
            Issue.record("the last line has no state: \(lines[lines.count - 1])")
            return
        }
        edit(&state)
        changes[0][member: "after"] = state
        line[member: "changes"] = .array(changes)
        var written: [UInt8] = []
        line.write(to: &written)
        lines[lines.count - 1] = String(decoding: written, as: UTF8.self)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
    }

    /// Replaces the string `old` with `new` wherever it is under one of `keys`.
    private func replaceEach(_ old: String, with new: String, under keys: Set<String>, in state: inout JSONValue) {
        for key in keys {
            state[member: key] = state[member: key].map { replacing(old, with: new, in: $0) }
        }
    }

    private func replacing(_ old: String, with new: String, in value: JSONValue) -> JSONValue {
        switch value {
        case .string(old): .string(new)
        case .array(let elements): .array(elements.map { replacing(old, with: new, in: $0) })
        case .object(let members): .object(members.mapValues { replacing(old, with: new, in: $0) })
        default: value
        }
    }
}

extension JSONValue {
    /// An object's member, read and written; `nil` for any other value.
    fileprivate subscript(member key: String) -> JSONValue? {
        get {
            guard case .object(let members) = parsed else { return nil }
            return members[key]
        }
        set {
            guard case .object(var members) = parsed else { return }
            members[key] = newValue
            self = .object(members)
        }
    }
}
