import Testing

#if canImport(XCTest)
import XCTest
#endif

/// Where an assertion was written, to point a failure at the test's line.
struct CallSite: Sendable {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt
}

/// Reports a failed assertion through the test library that is running: Swift Testing, or XCTest.
enum TestFailure {
    static func record(_ message: String, at site: CallSite) {
        if Test.current != nil {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(
                    fileID: "\(site.fileID)", filePath: "\(site.filePath)", line: Int(site.line),
                    column: Int(site.column)))
            return
        }
        #if canImport(XCTest)
        XCTFail(message, file: site.filePath, line: site.line)
        #else
        print("\(site.fileID):\(site.line): error: \(message)")
        #endif
    }
}
