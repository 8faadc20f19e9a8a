import Foundation
import Testing

@testable import Fluxion

/// Why loading failed: `Codable`, so that a journal can record it as a value.
enum LoadError: Error, Codable, Equatable, Sendable {
    case offline
    case notFound(id: Int)
    case denied(user: String, password: String)
}

/// An error that is not `Codable`: recorded by its description alone.
struct OpaqueLoadError: Error, Equatable, Sendable {
    let reason: String
}

extension ActionName where Payload == [String]? {
    static var booksLoaded: Self { "journalBooksLoaded" }
}

struct Loading: Codable, Equatable, Sendable {
    var books: [String] = []
    /// Each failure, as the handler saw it.
    var failures: [String] = []
    /// How many retries the failures of a `LoadError` asked for.
    var retries = 0
}

/// Loads books, and asks for a retry when loading fails with a ``LoadError``.
final class LoadingStore: Store<Loading>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: Loading()) }

    override class var handlers: HandlerTable<Loading> {
        HandlerTable().on(.booksLoaded) { loading, action in
            switch action.error {
            case let error as LoadError:
                loading.failures.append("\(error)")
                loading.retries += 1
            case let error?:
                loading.failures.append("not a LoadError: \(error)")
            case nil:
                loading.books = action.payload ?? []
            }
        }
    }
}

/// A step that carried an error replays when the error's type is `Codable` and registered (issue 34.2).
@Suite(.timeLimit(.minutes(10))) struct JournalReplayErrorTests {
    private func makeDispatcher(registering: Bool = true) throws -> Dispatcher {
        let dispatcher = Dispatcher()
        try dispatcher.register(LoadingStore.self)
        if registering { dispatcher.registerReplayableError(LoadError.self) }
        return dispatcher
    }

    @Test func aFailureWithACodableErrorReplaysAsTheSameErrorAndItsRetryHandlerRuns() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.booksLoaded, result: .failure(LoadError.notFound(id: 7)))
        try dispatcher.dispatch(.booksLoaded, payload: nil, error: LoadError.offline)
        try dispatcher.batch { batch in try batch.dispatch(.booksLoaded, payload: nil, error: LoadError.offline) }
        try dispatcher.dispatch(.booksLoaded, result: .success(["Dune"]))
        journal.flush()
        let recorded = try dispatcher.store(LoadingStore.self).state
        #expect(recorded.retries == 3)

        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(#""errorType":"FluxionTests.LoadError","errorValue":{"notFound":{"id":7}}"#))
        #expect(journal.records.map(\.isReplayable) == [true, true, true, true])
        #expect(try Journal.records(contentsOf: url).map(\.isReplayable) == [true, true, true, true])
        #expect(journal.records[0].error == "notFound(id: 7)")

        for source in ["file", "memory"] {
            let fresh = try makeDispatcher()
            let report =
                source == "file" ? try Journal.replay(contentsOf: url, into: fresh) : try journal.replay(into: fresh)

            #expect(report.replayed == 4 && report.applied == 0, "\(source): \(report)")
            #expect(report.allMatched, "\(source): \(report)")
            #expect(try fresh.store(LoadingStore.self).state == recorded, "the handler saw a LoadError again")
        }
        journal.stop()
    }

    @Test func aFailureWithAnErrorThatIsNotCodableIsRecordedByDescriptionAndNotReplayed() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.booksLoaded, result: .failure(OpaqueLoadError(reason: "disk")))
        journal.flush()

        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(#""error":"OpaqueLoadError(reason: \"disk\")""#) && !text.contains("errorType"))
        #expect(journal.records.map(\.isReplayable) == [false])
        let fresh = try makeDispatcher()
        let report = try Journal.replay(contentsOf: url, into: fresh)
        #expect(report.replayed == 0 && report.applied == 1 && report.allMatched, "\(report)")
        #expect(try fresh.store(LoadingStore.self).state == dispatcher.store(LoadingStore.self).state)
        journal.stop()
    }

    @Test func aCodableErrorOfATypeTheDispatcherDoesNotRegisterIsNotReplayed() throws {
        let dispatcher = try makeDispatcher(registering: false)
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.booksLoaded, result: .failure(LoadError.offline))

        #expect(journal.records.map(\.isReplayable) == [false])
        let report = try journal.replay(into: makeDispatcher(registering: false))
        #expect(report.replayed == 0 && report.applied == 1 && report.allMatched, "\(report)")
    }

    @Test func aReplayIntoADispatcherThatDoesNotRegisterTheTypeIsAnErrorNamingTheLine() throws {
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.booksLoaded, result: .failure(LoadError.offline))

        let error = #expect(throws: JournalError.self) { try journal.replay(into: makeDispatcher(registering: false)) }
        guard case .undecodableValue(line: 2, name: "journalBooksLoaded", let reason) = error else {
            Issue.record("expected the line's error not to decode, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("FluxionTests.LoadError is not registered for replay"), "\(reason)")
        let fresh = try makeDispatcher(registering: false)
        let report = try journal.replay(into: fresh, skippingErrors: true)
        #expect(report.skipped.count == 1 && report.replayed == 0)
        #expect(try fresh.store(LoadingStore.self).state == Loading(), "a bad line changes nothing")
    }

    @Test func anErrorWithARedactedKeyIsHiddenAndNotReplayed() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url, redactingKeys: ["password"])
        try dispatcher.dispatch(.booksLoaded, result: .failure(LoadError.denied(user: "ada", password: "S3CRET")))
        journal.flush()

        // NB: the store's own state holds the error's text, as its handler wrote it: only the action is redacted.
        let text = try String(contentsOf: url, encoding: .utf8)
        let action = try #require(try JournalLine.decode(text).last?.line.get().action)
        #expect(
            action.errorValue
                == .object(["denied": .object(["password": .string("‹redacted›"), "user": .string("ada")])]))
        #expect(action.redacted == true)
        #expect(!action.description.contains("S3CRET") && action.error?.contains("S3CRET") == false)
        #expect(try Journal.records(contentsOf: url).map(\.isReplayable) == [false])
        journal.stop()
    }

    @Test func registeringATypeAgainChangesNothing() throws {
        let dispatcher = try makeDispatcher()
        dispatcher.registerReplayableError(LoadError.self)
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.booksLoaded, result: .failure(LoadError.offline))

        #expect(journal.records.map(\.isReplayable) == [true])
        #expect(try journal.replay(into: makeDispatcher()).replayed == 1)
    }

    /// Two private types of one name in one module have one qualified name: a file cannot tell them apart.
    @Test func typesOfOneQualifiedNameAreRecordedByDescription() throws {
        let dispatcher = try makeDispatcher()
        dispatcher.registerReplayableError(SameNamedError.self)
        let journal = try Journal(recording: dispatcher)
        try dispatcher.dispatch(.booksLoaded, result: .failure(SameNamedError.failed))
        #expect(journal.records.map(\.isReplayable) == [true])

        registerTheOtherSameNamedError(with: dispatcher)

        #expect(qualifiedTypeName(SameNamedError.self) == theOtherSameNamedErrorsName)
        #expect(journal.records.map(\.isReplayable) == [false])
        #expect(dispatcher.replayableErrors.record(SameNamedError.failed) == nil)
    }

    @Test func aFailureLineOfAnOlderFileStillReadsAndIsNotReplayed() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(
            ([
                #"{"format":"fluxion-journal","kind":"header","time":"2026-11-25T10:00:00Z","version":2}"#,
                #"{"action":{"description":"journalBooksLoaded(nil) error: offline","error":"offline","#
                    + #""name":"journalBooksLoaded","payload":null},"changes":[{"after":{"books":[],"#
                    + #""failures":["offline"],"retries":1},"before":{"books":[],"failures":[],"retries":0},"#
                    + #""diff":["retries: 0 → 1"],"store":"LoadingStore"}],"kind":"action","replayable":false,"#
                    + #""sequence":1,"time":"2026-11-25T10:00:01Z"}"#,
            ].joined(separator: "\n") + "\n").utf8
        ).write(to: url)

        let records = try Journal.records(contentsOf: url)
        let fresh = try makeDispatcher()
        let report = try Journal.replay(contentsOf: url, into: fresh)

        #expect(records.map(\.error) == ["offline"] && records.map(\.isReplayable) == [false])
        #expect(report.applied == 1 && report.replayed == 0 && report.allMatched, "\(report)")
        #expect(try fresh.store(LoadingStore.self).state.retries == 1)
    }
}

/// One of two private error types of one name; the other is in `JournalStores.swift`.
private enum SameNamedError: Error, Codable {
    case failed
}
