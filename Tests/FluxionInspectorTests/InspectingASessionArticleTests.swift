import Fluxion
import FluxionInspector
import Foundation
import Testing

/// The viewer's code of "Inspecting a Session" (Fluxion's catalog), run; its trace code is run by
/// FluxionTests' `InspectingASessionArticleTests`.
@Suite struct InspectingASessionArticleTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")

    @Test func theArticleExamplesRun() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sessionURL = folder.appendingPathComponent("session.jsonl")
        let pageURL = folder.appendingPathComponent("session.html")
        let dispatcher = Dispatcher()
        try dispatcher.register(ShelfStore.self)
        do {
            // article-memory-begin
            let journal = try Journal(recording: dispatcher, writingTo: sessionURL)
            try dispatcher.dispatch(.shelve, payload: "Dune")
            try journal.writeViewer(to: pageURL)  // the steps so far
            // article-memory-end
            journal.stop()
            #expect(try String(contentsOf: pageURL, encoding: .utf8).contains(#""payload":"Dune""#))
        }
        // article-file-begin
        try Journal.writeViewer(contentsOf: sessionURL, to: pageURL)  // a file recorded earlier
        let html = try Journal.viewer(contentsOf: sessionURL)  // the same page, as text
        print(try JournalSummary(contentsOf: sessionURL))  // steps, actions, stores, effects, errors
        // article-file-end
        #expect(try String(contentsOf: pageURL, encoding: .utf8) == html)
        #expect(html.contains(#""payload":"Dune""#))
    }

    @Test func theArticleShowsTheCodeVerbatim() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let article = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Sources/Fluxion/Fluxion.docc/InspectingASession.md"),
            encoding: .utf8)
        for marker in ["memory", "file"] {
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
