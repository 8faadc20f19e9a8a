import Foundation
import Testing

@testable import Fluxion

/// A journal file's times: to the microsecond since version 3; whole seconds, in older files, still read.
@Suite(.timeLimit(.minutes(10))) struct JournalTimeTests {
    @Test func aWrittenLineHasItsTimeToTheMicrosecondAndReadsBackToIt() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let dispatcher = try makeShelfDispatcher()
        let journal = try Journal(recording: dispatcher, writingTo: url)
        try dispatcher.dispatch(.shelve, payload: "Dune")
        try dispatcher.dispatch(.shelve, payload: "Emma")
        journal.flush()

        let text = try String(contentsOf: url, encoding: .utf8)
        let times = text.matches(of: /"time":"([^"]*)"/).map { String($0.output.1) }
        #expect(times.count == 3)  // the header's and each step's
        for time in times { #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z/) != nil, "\(time)") }
        let read = try Journal.records(contentsOf: url).map(\.time)
        let recorded = journal.records.map(\.time)
        #expect(read.map(microseconds) == recorded.map(microseconds))
        #expect(read.contains { microseconds($0) % 1_000_000 != 0 }, "the records carry the fractions")
    }

    @Test(arguments: [
        0, 1, 59.999, 0.000_001, 951_782_400.25, 1_795_600_800.123_456, 4_102_444_799.999_999, -86_400, -0.5,
    ])
    func aTimeReadsBackToTheSameMicrosecond(seconds: Double) throws {
        let time = Date(timeIntervalSince1970: seconds)
        let text = JournalLine.iso8601(time)

        let read = try #require(JournalLine.time(parsing: text))

        #expect(microseconds(read) == microseconds(time), "\(text)")
        #expect(JournalLine.iso8601(read) == text)
    }

    @Test(arguments: [0, 59.999, 951_782_400, 1_795_000_000.5, 4_102_444_799, -86_400, -0.25])
    func aTimeIsWrittenInUTCAsISO8601FormatStyleWritesIt(seconds: Double) {
        let time = Date(timeIntervalSince1970: seconds)
        let whole = Date(timeIntervalSince1970: seconds.rounded(.down))
        let fraction = Int(((seconds - seconds.rounded(.down)) * 1_000_000).rounded())

        let text = JournalLine.iso8601(time)

        let expected = Date.ISO8601FormatStyle().format(whole).dropLast()  // without its "Z"
        #expect(text == expected + "." + String(format: "%06d", fraction) + "Z")
    }

    @Test func aTimeOfAnotherFormOrNoneIsNotATime() {
        #expect(JournalLine.time(parsing: "2026-11-25T10:00:00+02:00") == Date(timeIntervalSince1970: 1_795_593_600))
        for text in [
            "", "yesterday", "2026-13-01T00:00:00Z", "2026-11-25T10:00:00.Z", "2026-11-25T10:00:00.1234567890Z",
        ] {
            #expect(JournalLine.time(parsing: text) == nil, "\(text)")
        }
    }

    @Test func anOlderFilesWholeSecondTimesStillRead() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(
            ([
                #"{"format":"fluxion-journal","kind":"header","time":"2026-11-25T10:00:00Z","version":2}"#,
                #"{"action":{"description":"journalShelve(Dune)","name":"journalShelve","payload":"Dune"},"#
                    + #""changes":[{"after":{"books":["Dune"],"owner":{"name":"","password":""}},"#
                    + #""before":{"books":[],"owner":{"name":"","password":""}},"diff":["books[0]: + \"Dune\""],"#
                    + #""store":"ShelfStore"}],"kind":"action","replayable":true,"sequence":1,"#
                    + #""time":"2026-11-25T10:00:01Z"}"#,
            ].joined(separator: "\n") + "\n").utf8
        ).write(to: url)

        let records = try Journal.records(contentsOf: url)
        let report = try Journal.replay(contentsOf: url, into: makeShelfDispatcher())

        #expect(records.map(\.time) == [Date(timeIntervalSince1970: 1_795_600_801)])
        #expect(report.replayed == 1 && report.allMatched, "\(report)")
    }

    @Test func aLineWithATimeThatIsNotOneIsCorruptNamingItsLine() throws {
        let url = temporaryJournalURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(
            ([
                #"{"format":"fluxion-journal","kind":"header","version":3}"#,
                #"{"action":{"description":"x","name":"journalShelve","payload":"Dune"},"kind":"action","#
                    + #""replayable":true,"sequence":1,"time":"the day before"}"#,
            ].joined(separator: "\n") + "\n").utf8
        ).write(to: url)

        #expect(throws: JournalError.corruptLine(line: 2, reason: "it is not a journal line")) {
            try Journal.records(contentsOf: url)
        }
    }

    private func microseconds(_ time: Date) -> Int64 {
        Int64((time.timeIntervalSince1970 * 1_000_000).rounded())
    }
}
