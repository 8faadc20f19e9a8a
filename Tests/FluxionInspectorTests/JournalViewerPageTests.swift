import Fluxion
import Foundation
import Testing

@testable import FluxionInspector

/// The page as it is built: the files in Resources, embedded when the module is built, put together.
@Suite struct JournalViewerPageTests {
    /// The folder of the page's files in the sources.
    private let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/FluxionInspector/Resources").standardizedFileURL

    /// The module holds each file as it is in the sources: nothing is read from disk when it runs.
    @Test func embedsTheFilesAsTheyAre() throws {
        let embedded: [String: [UInt8]] = [
            "viewer.html": PackageResources.viewer_html, "viewer.css": PackageResources.viewer_css,
            "viewer-journal.js": PackageResources.viewer_journal_js,
            "viewer-format.js": PackageResources.viewer_format_js, "viewer-list.js": PackageResources.viewer_list_js,
            "viewer-detail.js": PackageResources.viewer_detail_js, "viewer-axis.js": PackageResources.viewer_axis_js,
            "viewer-app.js": PackageResources.viewer_app_js,
        ]
        let files = try FileManager.default.contentsOfDirectory(atPath: resources.path).sorted()
        #expect(files == embedded.keys.sorted())
        for (name, bytes) in embedded {
            #expect(try Data(contentsOf: resources.appendingPathComponent(name)) == Data(bytes), "\(name)")
        }
        #expect(JournalViewerPage.scripts.count == files.filter { $0.hasSuffix(".js") }.count)
    }

    /// The page is viewer.html with the style sheet and every script inlined, in order, once.
    @Test func inlinesTheStyleSheetAndTheScripts() throws {
        let page = JournalViewerPage.template

        let css = JournalViewerPage.text(of: PackageResources.viewer_css)
        #expect(page.contains("<style>\n\(css)\n</style>"))
        let script = JournalViewerPage.scripts.map(JournalViewerPage.text(of:)).joined(separator: "\n\n")
        #expect(page.contains("<script>\n\"use strict\";\n(() => {\n\(script)\n})();\n</script>"))
        #expect(page.hasPrefix("<!doctype html>") && page.hasSuffix("</html>"))
        for placeholder in ["{{STYLE}}", "{{SCRIPT}}", "{{VERSION}}"] { #expect(!page.contains(placeholder)) }
        #expect(page.components(separatedBy: "{{JOURNAL}}").count == 2)
        #expect(page.contains(JournalViewerPage.generatorMark))
    }

    /// The page reads the lines of the version a journal writes, and says so of a newer one.
    @Test func thePageKnowsTheVersionAJournalWrites() {
        let page = JournalViewerPage.template

        #expect(page.contains(#"data-version="\#(Journal.fileFormatVersion)""#))
        #expect(page.contains(#"const KNOWN_VERSION = Number($("journal").dataset.version);"#))
        #expect(page.contains("if (j.version > KNOWN_VERSION) {"))
    }

    @Test func asksForNothingOverTheNetwork() {
        let page = JournalViewerPage.template

        #expect(page.contains(#"content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline"#))
        #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("//cdn"))
        #expect(!page.contains(" src=") && !page.contains("@import") && !page.contains("url("))
    }
}
