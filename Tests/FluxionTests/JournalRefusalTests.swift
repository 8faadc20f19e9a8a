import Fluxion
import Foundation
import Testing

/// Why the pantry refused an item: `Codable`, so that a journal records it as a value.
enum PantryError: Error, Codable, Equatable, Sendable {
    case empty
    case duplicate(String)
}

extension ActionName where Payload == String {
    static var stock: Self { "pantryStock" }
}

/// A pantry that refuses an empty item and one it holds already.
final class PantryStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable().on(.stock) { items, action in
            guard !action.payload.isEmpty else { throw PantryError.empty }
            guard !items.contains(action.payload) else { throw PantryError.duplicate(action.payload) }
            items.append(action.payload)
        }
    }
}

/// A later build's pantry, which takes anything: a recorded refusal no longer happens.
final class LenientPantryStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable().on(.stock) { items, action in items.append(action.payload) }
    }
}

/// A pantry that refuses everything as a duplicate: a recorded refusal now has another error.
final class FullPantryStore: Store<[String]>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: []) }

    override class var handlers: HandlerTable<[String]> {
        HandlerTable().on(.stock) { _, action in throw PantryError.duplicate(action.payload) }
    }
}

/// Issue 45.1: a refused action is recorded as a refusal — not a step — with its error and reason, and
/// a replay checks it is refused again alike.
@Suite(.timeLimit(.minutes(10))) struct JournalRefusalTests {
    /// Which build's pantry a dispatcher registers.
    enum Pantry {
        case strict, lenient, full
    }

    private func makeDispatcher(pantry: Pantry = .strict, registeringErrors: Bool = true) throws -> Dispatcher {
        let dispatcher = Dispatcher()
        try dispatcher.register(ShelfStore.self)
        switch pantry {
        case .strict: try dispatcher.register(PantryStore.self)
        case .lenient: try dispatcher.register(LenientPantryStore.self)
        case .full: try dispatcher.register(FullPantryStore.self)
        }
        if registeringErrors { dispatcher.registerReplayableError(PantryError.self) }
        return dispatcher
    }

    /// A session: a step, two refusals, a step.
    private func record(_ dispatcher: Dispatcher) throws {
        try dispatcher.dispatch(.shelve, payload: "Dune")
        #expect(throws: PantryError.empty) { try dispatcher.dispatch(.stock, payload: "") }
        try dispatcher.dispatch(.stock, payload: "tea")
        #expect(throws: PantryError.duplicate("tea")) { try dispatcher.dispatch(.stock, payload: "tea") }
    }

    @Test func aRefusedActionIsRecordedWithItsErrorAndIsNotAStep() throws {
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher)
        try record(dispatcher)

        #expect(journal.records.map(\.action) == ["journalShelve(Dune)", "pantryStock(tea)"])
        let refusals = journal.refusals
        #expect(refusals.map(\.afterStep) == [1, 2])
        #expect(refusals.map(\.name) == ["pantryStock", "pantryStock"])
        #expect(refusals.map(\.action) == ["pantryStock()", "pantryStock(tea)"])
        #expect(refusals.map(\.error) == ["empty", #"duplicate("tea")"#])
        #expect(refusals.map(\.reason) == [.thrown, .thrown])
        #expect(refusals.allSatisfy { $0.isReplayable && $0.cause == .outside })
        #expect(
            refusals.map(\.description) == [
                "✗ pantryStock() ! empty (thrown) after #1",
                #"✗ pantryStock(tea) ! duplicate("tea") (thrown) after #2"#,
            ])
    }

    @Test func aFileHasARefusalLineOfVersion4AndReadsBack() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try record(dispatcher)
        journal.stop()

        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        #expect(lines[0].contains(#""version":4"#))
        #expect(lines.filter { $0.contains(#""kind":"refusal""#) }.count == 2)
        #expect(try Journal.records(contentsOf: url).map(\.sequence) == [1, 2])
        let read = try Journal.refusals(contentsOf: url)
        #expect(read.map(\.description) == journal.refusals.map(\.description))
        #expect(read.map(\.isReplayable) == [true, true])
    }

    @Test func aReplayDispatchesEachRefusalAgainAndFindsItRefusedAlike() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let recorded = try makeDispatcher()
        let journal = try Journal(recording: recorded, writingTo: url)
        try record(recorded)
        journal.stop()

        let report = try Journal.replay(contentsOf: url, into: try makeDispatcher())
        #expect(report.allMatched)
        #expect(report.replayed == 2)
        #expect(report.refusalsReplayed == 2)
        #expect(report.description.hasPrefix("Replayed 2 step(s) and 2 refusal(s)"))
        let inMemory = try journal.replay(into: try makeDispatcher())
        #expect(inMemory.allMatched && inMemory.refusalsReplayed == 2)
    }

    @Test func aRefusalThatNowSucceedsIsAMismatch() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let recorded = try makeDispatcher()
        let journal = try Journal(recording: recorded, writingTo: url)
        try recorded.dispatch(.shelve, payload: "Dune")
        #expect(throws: PantryError.empty) { try recorded.dispatch(.stock, payload: "") }
        journal.stop()

        let report = try Journal.replay(contentsOf: url, into: try makeDispatcher(pantry: .lenient))
        let mismatch = try #require(report.mismatch)
        #expect(mismatch.store == ReplayReport.Mismatch.refusal)
        #expect(mismatch.sequence == 1)
        #expect(mismatch.line == 3)
        #expect(mismatch.diff == ["refused with empty; now it succeeds"])
        #expect(
            "\(mismatch)"
                == "the refusal after step #1 (pantryStock(), line 3) differs from the recording\n"
                + "  refused with empty; now it succeeds")
    }

    @Test func aRefusalWithAnotherErrorNowIsAMismatch() throws {
        let recorded = try makeDispatcher()
        let journal = try Journal(recording: recorded)
        #expect(throws: PantryError.empty) { try recorded.dispatch(.stock, payload: "") }

        let report = try journal.replay(into: try makeDispatcher(pantry: .full))
        #expect(report.mismatch?.diff == [#"refused with empty; now it is refused with duplicate("")"#])
    }

    @Test func anErrorOfATypeNotRegisteredIsComparedByDescription() throws {
        let recorded = try makeDispatcher(registeringErrors: false)
        let journal = try Journal(recording: recorded)
        try recorded.dispatch(.stock, payload: "tea")
        #expect(throws: PantryError.duplicate("tea")) { try recorded.dispatch(.stock, payload: "tea") }

        #expect(try journal.replay(into: try makeDispatcher(registeringErrors: false)).refusalsReplayed == 1)

        let empty = try makeDispatcher(registeringErrors: false)
        let emptyJournal = try Journal(recording: empty)
        #expect(throws: PantryError.empty) { try empty.dispatch(.stock, payload: "") }
        let other = try emptyJournal.replay(into: try makeDispatcher(pantry: .full, registeringErrors: false))
        #expect(other.mismatch?.diff == [#"refused with empty; now it is refused with duplicate("")"#])
    }

    @Test func aFailedBatchIsOneRefusalWithItsActions() throws {
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher)
        #expect(throws: PantryError.empty) {
            try dispatcher.batch { batch in
                try batch.dispatch(.stock, payload: "rice")
                try batch.dispatch(.stock, payload: "")
            }
        }
        #expect(journal.records.isEmpty)
        let refusal = try #require(journal.refusals.first)
        #expect(journal.refusals.count == 1)
        #expect(refusal.name == AnyAction.batchName)
        #expect(refusal.action == "\(AnyAction.batchName) of 2 action(s)")
        #expect(!refusal.isReplayable && refusal.afterStep == 0)
        #expect(try journal.replay(into: try makeDispatcher(pantry: .lenient)).allMatched)
    }

    /// A batch's body can throw, or have an operation refused before it is staged: what the recording has
    /// of it, its actions, would not repeat that, so a failed batch is not dispatched again.
    @Test func aBatchWhoseBodyThrewIsRecordedAndNotReplayed() throws {
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher)
        #expect(throws: PantryError.empty) {
            try dispatcher.batch { batch in
                try batch.dispatch(.stock, payload: "rice")
                throw PantryError.empty
            }
        }
        let refusal = try #require(journal.refusals.first)
        #expect(refusal.action == "\(AnyAction.batchName) of 1 action(s)" && !refusal.isReplayable)
        let report = try journal.replay(into: try makeDispatcher())
        #expect(report.allMatched && report.refusalsReplayed == 0)
    }

    @Test func aPayloadOfTheWrongTypeIsRecordedAndNotReplayed() throws {
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher)
        #expect(throws: FluxionError.self) { try dispatcher.dispatch(AnyAction(name: "pantryStock", payload: 7)) }

        let refusal = try #require(journal.refusals.first)
        #expect(refusal.reason == .payloadTypeMismatch)
        #expect(!refusal.isReplayable)
        let report = try journal.replay(into: try makeDispatcher())
        #expect(report.allMatched && report.refusalsReplayed == 0)
    }

    @Test func aDispatchWhileThePastIsShownIsRecordedAtTheStepShown() throws {
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.stock, payload: "tea")
        try dispatcher.dispatch(.stock, payload: "rice")
        try journal.stepBack()

        #expect(throws: JournalError.self) { try dispatcher.dispatch(.stock, payload: "salt") }
        let refusal = try #require(journal.refusals.first)
        #expect(refusal.reason == .pastShown && refusal.afterStep == 1 && !refusal.isReplayable)
        #expect(refusal.action == "pantryStock(salt)")

        journal.resumeDiscardingLaterSteps()
        #expect(journal.refusals.map(\.afterStep) == [1])  // NB: kept: it came after the step resumed from
        #expect(journal.records.count == 1)
    }

    @Test func resumingDropsTheRefusalsAfterTheStepResumedFrom() throws {
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.stock, payload: "tea")
        #expect(throws: PantryError.empty) { try dispatcher.dispatch(.stock, payload: "") }
        try dispatcher.dispatch(.stock, payload: "rice")
        #expect(throws: PantryError.empty) { try dispatcher.dispatch(.stock, payload: "") }
        try journal.stepBack()
        journal.resumeDiscardingLaterSteps()

        #expect(journal.refusals.map(\.afterStep) == [1])
    }

    @Test func aCancelledTasksDispatchIsRecordedAsTaskCancelled() async throws {
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher)
        let cancelled = OneShotSignal()
        let task = dispatcher.dispatchTask(id: "restock") { dispatcher in
            await cancelled.wait()
            try dispatcher.dispatch(.stock, payload: "late")
        }
        dispatcher.cancelTasks(id: "restock")
        cancelled.fire()
        await #expect(throws: CancellationError.self) { try await task.value }

        let refusal = try #require(journal.refusals.first)
        #expect(refusal.reason == .taskCancelled && !refusal.isReplayable)
        #expect(refusal.action == "pantryStock(late)")
        #expect(try dispatcher.store(PantryStore.self).state == [])
    }

    @Test func aMoveFromACancelledTaskIsRefusedButIsNoRefusalOfTheSession() async throws {
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.stock, payload: "tea")
        let cancelled = OneShotSignal()
        let task = dispatcher.dispatchTask(id: "rewind") { _ in
            await cancelled.wait()
            try journal.stepBack()
        }
        dispatcher.cancelTasks(id: "rewind")
        cancelled.fire()
        await #expect(throws: CancellationError.self) { try await task.value }

        #expect(journal.refusals.isEmpty)  // a move is not an action of the session
        #expect(!journal.isTravelling)
        #expect(try dispatcher.store(PantryStore.self).state == ["tea"])
    }

    @Test func aRedactedErrorIsHiddenInTheFileAndNotReplayed() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = Dispatcher()
        try dispatcher.register(LoadingStore.self)
        try dispatcher.register(ShelfStore.self)
        dispatcher.registerReplayableError(LoadError.self)
        let journal = try Journal(recording: dispatcher, writingTo: url, redactingKeys: ["password"])
        _ = try? dispatcher.batch { _ in throw LoadError.denied(user: "ann", password: "hunter2") }
        journal.stop()

        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(!text.contains("hunter2"))
        let refusal = try #require(try Journal.refusals(contentsOf: url).first)
        #expect(refusal.error.contains("‹redacted›"))
        #expect(!refusal.isReplayable)
    }

    @Test func aVersion4FilesRefusalLineReadsAndReplays() throws {
        let url = try journalFile([
            #"{"format":"fluxion-journal","kind":"header","version":4}"#,
            #"{"action":{"description":"pantryStock()","name":"pantryStock","payload":""},"kind":"refusal","#
                + #""refusal":{"error":"empty","errorType":"FluxionTests.PantryError","errorValue":{"empty":{}},"#
                + #""reason":"thrown"},"replayable":true,"sequence":0,"time":"2026-12-02T07:00:00.250000Z"}"#,
        ])
        defer { try? FileManager.default.removeItem(at: url) }

        #expect(try Journal.records(contentsOf: url).isEmpty)
        let refusal = try #require(try Journal.refusals(contentsOf: url).first)
        #expect("\(refusal)" == "✗ pantryStock() ! empty (thrown) after #0")
        #expect(refusal.time == Date(timeIntervalSince1970: 1_796_194_800.25))
        #expect(try Journal.replay(contentsOf: url, into: try makeDispatcher()).refusalsReplayed == 1)
        #expect(try Journal.replay(contentsOf: url, into: try makeDispatcher(pantry: .lenient)).mismatch != nil)
    }

    private func journalFile(_ lines: [String]) throws -> URL {
        let url = temporaryJournalURL()
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url
    }
}
