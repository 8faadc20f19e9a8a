import Foundation

// A line's time as text: ISO 8601 in UTC, to the microsecond (`2026-11-25T10:00:00.123456Z`). Files
// written before version 3 keep whole seconds (`2026-11-25T10:00:00Z`): both read back.
//
// NB: written and read by hand, with the civil-calendar arithmetic of H. Hinnant's `days_from_civil`:
// every line has a time, and a formatter costs many times more per line.
extension JournalLine {
    /// `time` in ISO 8601, in UTC, to the nearest microsecond: `2026-11-25T10:00:00.123456Z`.
    static func iso8601(_ time: Date) -> String {
        let (seconds, microseconds) = wholeSeconds(of: time)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(fromDays: days)
        let (hour, minute, second) = (secondOfDay / 3_600, secondOfDay % 3_600 / 60, secondOfDay % 60)
        guard (0...9999).contains(year) else {
            func digits(_ value: Int, _ count: Int) -> String {
                String(repeating: "0", count: max(0, count - String(value).count)) + String(value)
            }
            return "\(year)-\(digits(month, 2))-\(digits(day, 2))T\(digits(hour, 2)):\(digits(minute, 2)):"
                + "\(digits(second, 2)).\(digits(microseconds, 6))Z"
        }
        // NB: digits put in place, as every line has a time: interpolating them costs many times more.
        var text = Array("0000-00-00T00:00:00.000000Z".utf8)
        func put(_ value: Int, endingAt end: Int) {
            var (value, index) = (value, end)
            while value > 0 {
                text[index] = UInt8(ascii: "0") + UInt8(value % 10)
                (value, index) = (value / 10, index - 1)
            }
        }
        put(year, endingAt: 3)
        put(month, endingAt: 6)
        put(day, endingAt: 9)
        put(hour, endingAt: 12)
        put(minute, endingAt: 15)
        put(second, endingAt: 18)
        put(microseconds, endingAt: 25)
        return String(decoding: text, as: UTF8.self)
    }

    /// The time an ISO 8601 text in UTC names, `2026-11-25T10:00:00Z` with any fraction of a second
    /// (a journal's own form), or any other form `Date.ISO8601FormatStyle` reads; `nil` for another text.
    static func time(parsing text: String) -> Date? {
        if let time = parseUTC(Array(text.utf8)) { return time }
        // NB: not a form a journal writes: a line edited by hand, with an offset from UTC, say.
        return (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    /// A decoder of journal lines: their times as ``iso8601(_:)`` writes them, or to the second.
    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let time = time(parsing: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not an ISO 8601 time")
            }
            return time
        }
        return decoder
    }

    /// `time` as whole seconds since 1970 and the microseconds after them, rounded to the nearest
    /// microsecond; a time out of range (not finite, or hundreds of millennia away) as 1970's start.
    private static func wholeSeconds(of time: Date) -> (seconds: Int, microseconds: Int) {
        let total = (time.timeIntervalSince1970 * 1_000_000).rounded()
        guard total.isFinite, abs(total) < 1e16 else { return (0, 0) }
        let microseconds = Int(total)
        let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
        return (seconds, microseconds - seconds * 1_000_000)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, or `nil`.
    private static func parseUTC(_ bytes: [UInt8]) -> Date? {
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes.last == UInt8(ascii: "Z"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]),
            let second = number(bytes[17..<19]),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var fraction = 0.0
        let rest = bytes[19..<(bytes.count - 1)]
        if !rest.isEmpty {
            let digits = rest.dropFirst()
            guard rest.first == UInt8(ascii: "."), !digits.isEmpty, digits.count <= 9, let value = number(digits)
            else { return nil }
            fraction = Double(value) / pow(10, Double(digits.count))
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// The decimal number the bytes spell, or `nil` if one is not a digit.
    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// The days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of the proleptic Gregorian calendar `days` days after 1970-01-01.
    private static func civilDate(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let days = days + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
