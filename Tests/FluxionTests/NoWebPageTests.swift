import Foundation
import Testing

/// Fluxion holds no web page: the journal viewer's HTML, CSS and JavaScript are FluxionInspector's files
/// (issue 36), so that an app that links only Fluxion carries none of it.
@Suite struct NoWebPageTests {
    @Test func fluxionsSourcesHoldNoHTMLCSSOrJavaScript() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/Fluxion").standardizedFileURL
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50)
        let marks = ["<!doctype", "<html", "<script", "<style", "document.getElementById", "addEventListener("]
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8).lowercased()
            for mark in marks { #expect(!text.contains(mark.lowercased()), "\(file) holds \(mark)") }
        }
    }
}
