import Fluxion
import Foundation
import Testing

/// The trace code of "Inspecting a Session", run; its viewer code is run by FluxionInspectorTests.
@Suite(.onThreadsOfItsOwn) struct InspectingASessionArticleTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")

    @Test func theTraceExamplesRun() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let traceURL = folder.appendingPathComponent("trace.json")
        let dispatcher = Dispatcher()
        try dispatcher.register(ShelfStore.self)
        // article-trace-begin
        let trace = dispatcher.startTracing()
        try dispatcher.dispatch(.shelve, payload: "Dune")
        trace.stop()
        try trace.write(to: traceURL)  // open it in Perfetto or chrome://tracing
        // article-trace-end
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: traceURL)) as? [String: Any]
        let events = try #require(json?["traceEvents"] as? [[String: Any]])
        #expect(events.contains { $0["cat"] as? String == "handler" && $0["name"] as? String == "ShelfStore" })

        let written = try captureStandardError {
            // article-slow-begin
            let watch = dispatcher.startTracing(slowActionThreshold: .milliseconds(16)) { report in
                print(report)
            }
            // article-slow-end
            #expect(watch.slowActionThreshold == .milliseconds(16))
            try dispatcher.dispatch(.shelve, payload: "Emma")
        }
        #expect(!written.contains("Slow action: shelve"))  // the report goes to the closure, not here
    }

    @Test func theArticleShowsTheCodeVerbatim() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let article = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Sources/Fluxion/Fluxion.docc/InspectingASession.md"),
            encoding: .utf8)
        for marker in ["trace", "slow"] {
            let snippet = try #require(
                source.components(separatedBy: "// article-\(marker)-begin\n").last?
                    .components(separatedBy: "// article-\(marker)-end").first)
            let indent = String(snippet.prefix { $0 == " " })
            let code = snippet.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.dropFirst(indent.count)
            }.joined(separator: "\n")
            #expect(article.contains("```swift\n\(code)```"), "the article lacks article-\(marker)")
        }
    }
}
