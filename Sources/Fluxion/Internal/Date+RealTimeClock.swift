import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

extension Date {
    /// The seconds from 1970 to 2001, the reference date, as the system clock counts them.
    private static let referenceDateSince1970: Double = 978_307_200

    /// Now, read straight from the system's real-time clock, with the arithmetic `Date()` uses on Linux: what
    /// `Date()` reads, for less than it costs there, as a journal dates each step it records.
    static func readingRealTimeClock() -> Date {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Date(
            timeIntervalSinceReferenceDate: (Double(now.tv_sec) - referenceDateSince1970) + 1.0e-9 * Double(now.tv_nsec)
        )
    }
}
