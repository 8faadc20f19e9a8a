import Foundation
import Testing

@testable import Fluxion

/// Two store types of one short name, told apart in a journal file by their qualified names.
enum Kitchen {
    final class Counter: Store<ReadCount>, DefaultInitializable, @unchecked Sendable {  // locked by Store
        init() { super.init(initialState: ReadCount()) }

        override class var handlers: HandlerTable<ReadCount> {
            HandlerTable().on(.shelve) { count, _ in count.count += 1 }
        }
    }
}

enum Garage {
    final class Counter: Store<ReadCount>, DefaultInitializable, @unchecked Sendable {  // locked by Store
        init() { super.init(initialState: ReadCount()) }

        override class var handlers: HandlerTable<ReadCount> {
            HandlerTable().on(.shelve) { count, _ in count.count += 10 }
        }
    }
}

/// A state that counts how often it is encoded.
struct CountedEncodings: Codable, Sendable {
    static let count = LockedBox(0)
    var value = 0

    func encode(to encoder: any Encoder) throws {
        Self.count.withValue { $0 += 1 }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
    }
}

extension ActionName where Payload == Int {
    fileprivate static var countedSet: Self { "countedEncodingsSet" }
}

final class EncodingsStore: Store<CountedEncodings>, DefaultInitializable, @unchecked Sendable {  // locked by Store
    init() { super.init(initialState: CountedEncodings()) }

    override class var handlers: HandlerTable<CountedEncodings> {
        HandlerTable().on(.countedSet) { state, action in state.value = action.payload }
    }
}

/// A journal's lines are written by hand, not by `Codable`: they must read back as `Codable` reads them.
@Suite(.timeLimit(.minutes(10))) struct JournalFileTextTests {
    @Test(arguments: [
        JSONValue.object([
            "plain": .string("Dune"), "quote": .string(#"say "hi"\ there"#), "lines": .string("a\nb\tc\r\u{1}"),
            "unicode": .string("é 日本 🎉"), "numbers": .array([.integer(-3), .number(2.5), .number(1e-7)]),
            "flags": .array([.bool(true), .bool(false), .null]), "empty": .object([:]), "none": .array([]),
        ]),
        .string("/slashes/stay/"), .integer(Int64.max), .number(-0.25),
    ])
    func aValueWrittenByHandReadsBackTheSame(value: JSONValue) throws {
        var text: [UInt8] = []
        value.write(to: &text)

        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text))
        let parsed = try text.withUnsafeBytes { try JSONValue(parsing: $0) }
        #expect(decoded == value)
        #expect(parsed == value)
        #expect(
            String(decoding: text, as: UTF8.self)
                == String(decoding: try JSONValue.encoder.encode(value), as: UTF8.self))
    }

    @Test func textThatIsNotOneValueIsAnError() {
        for text in ["", "{", #"{"a" 1}"#, "[1,]", "tru", #""open"#, "1 2", #""\u12""#] {
            #expect(throws: DecodingError.self, "\(text)") {
                try Array(text.utf8).withUnsafeBytes { try JSONValue(parsing: $0) }
            }
        }
    }

    /// A value is encoded once: its text is kept and written as it is, and read into its parts only to
    /// redact it or to compare it with a value read from a file.
    @Test func anEncodedValueKeepsItsTextAndReadsAsItsParts() throws {
        struct Book: Codable, Equatable {
            var title = "Dune"
            var pages = 412
            var secret = "s3"
        }
        let encoded = try #require(JSONValue(encoding: Book()))
        let text = try JSONValue.encoder.encode(Book())
        #expect(encoded == .text([UInt8](text)))
        var written: [UInt8] = []
        encoded.write(to: &written)
        #expect(written == [UInt8](text))

        let parts = JSONValue.object(["title": .string("Dune"), "pages": .integer(412), "secret": .string("s3")])
        #expect(encoded == parts && parts == encoded && encoded.parsed == parts)
        #expect(encoded != .object(["title": .string("Dune")]))
        #expect(try encoded.decode(as: Book.self) as? Book == Book())
        #expect(try JSONDecoder().decode(JSONValue.self, from: JSONValue.encoder.encode(encoded)) == parts)
        #expect(encoded.redacting(["secret"]) == parts.redacting(["secret"]))
        #expect(encoded.redacting(["secret"]) != encoded)
        #expect(JSONValue(encoding: 7) == .integer(7) && JSONValue(encoding: "a") == .string("a"))
        #expect(
            JSONValue(encoding: true) == .bool(true)
                && JSONValue(encoding: Int?.none as Any) == .text(Array("null".utf8)))
        #expect(JSONValue(encoding: Int?.some(3) as Any) == .text(Array("3".utf8)))
    }

    /// Each state a journal file records is encoded once: its text goes into the line as it is.
    @Test func eachRecordedStateIsEncodedOnce() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = Dispatcher()
        try dispatcher.register(EncodingsStore.self)
        let journal = try Journal(recording: dispatcher, writingTo: url)
        CountedEncodings.count.withValue { $0 = 0 }
        for value in 1...5 { try dispatcher.dispatch(.countedSet, payload: value) }
        journal.stop()

        // NB: five states after, and the state before the first change.
        #expect(CountedEncodings.count.value == 6)
        let fresh = Dispatcher()
        try fresh.register(EncodingsStore.self)
        let report = try Journal.replay(contentsOf: url, into: fresh)
        #expect(report.allMatched, "\(report)")
        #expect(try fresh.store(EncodingsStore.self).state.value == 5)
    }

    @Test func aLineWrittenByHandDecodesAsTheCodableLine() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url, redactingKeys: ["password"])
        try dispatcher.dispatch(.shelve, payload: "Dune \"2\"\n")
        try dispatcher.dispatch(.signIn, payload: Owner(name: "Ada", password: "S3CRET"))
        try dispatcher.batch { batch in try batch.dispatch(.shelve, payload: "Emma") }
        journal.flush()

        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = JournalLine.decode(text).map { try? $0.line.get() }
        #expect(lines.count == 4)
        let shelve = try #require(lines[1])
        #expect(shelve.action?.payload == .string("Dune \"2\"\n"))
        #expect(shelve.changes?.map(\.store) == ["ShelfStore", "TallyReadingStore"])
        #expect(shelve.changes?.first?.type == "FluxionTests.ShelfStore")
        #expect(!text.contains("S3CRET"))
        #expect(lines[3]?.actions?.count == 1)
        for line in lines.compactMap({ $0 }) {
            let again = try JSONDecoder.journal.decode(JournalLine.self, from: Data(line.encoded()))
            #expect(Data(again.encoded()) == Data(line.encoded()))
        }
        let read = try Journal.records(contentsOf: url)
        #expect(
            read.map(\.action) == [
                "journalShelve(Dune \"2\"\n)", "journalSignIn(‹redacted›)", "Fluxion.batch of 1 action(s)",
            ])
        #expect(
            read.map(\.changes) == journal.records.map(\.changes).enumerated().map { $0 == 1 ? read[1].changes : $1 })
    }

    @Test func storesOfOneNameAreToldApartOnReplay() throws {
        func makeDispatcher() throws -> Dispatcher {
            let dispatcher = Dispatcher()
            try dispatcher.register(Kitchen.Counter.self)
            try dispatcher.register(Garage.Counter.self)
            return dispatcher
        }
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let recorded = try makeDispatcher()
        let journal = try Journal(recording: recorded, writingTo: url)
        try recorded.dispatch(.shelve, payload: "x")
        // NB: an inline mutation does not replay: its recorded states are set, each in the store the file names.
        try recorded.batch { batch in
            try batch.mutate(Kitchen.Counter.self) { $0.count = 3 }
            try batch.mutate(Garage.Counter.self) { $0.count = 30 }
        }
        journal.stop()

        let fresh = try makeDispatcher()
        let report = try Journal.replay(contentsOf: url, into: fresh)

        #expect(report.mismatch == nil)
        #expect(try fresh.store(Kitchen.Counter.self).state.count == 3)
        #expect(try fresh.store(Garage.Counter.self).state.count == 30)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(#""type":"FluxionTests.Kitchen.Counter""#))
        #expect(text.contains(#""type":"FluxionTests.Garage.Counter""#))
    }

    @Test func aPrivateTypesNameIsTheSameInEveryRun() {
        #expect(qualifiedTypeName(Hidden.self) == "FluxionTests.(private).Hidden")
        #expect(qualifiedTypeName(Kitchen.Counter.self) == "FluxionTests.Kitchen.Counter")
    }
}

private struct Hidden {}

/// The other of two private error types of one name; the first is in `JournalReplayErrorTests.swift`.
private enum SameNamedError: Error, Codable {
    case failed
}

/// Registers this file's `SameNamedError` with `dispatcher`.
func registerTheOtherSameNamedError(with dispatcher: Dispatcher) {
    dispatcher.registerReplayableError(SameNamedError.self)
}

/// The qualified name of this file's `SameNamedError`.
let theOtherSameNamedErrorsName = qualifiedTypeName(SameNamedError.self)

extension JSONDecoder {
    /// A decoder of journal lines, times as a journal writes them.
    static var journal: JSONDecoder {
        JournalLine.makeDecoder()
    }
}
