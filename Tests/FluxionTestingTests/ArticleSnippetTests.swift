import Foundation
import Testing

/// The code of "Testing Your Stores" is the code of these tests: each `// article-NAME-begin` …
/// `// article-NAME-end` region of this folder's files, dedented, appears in the article verbatim.
@Test func theArticleShowsTheTestedCodeVerbatim() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let article = try String(
        contentsOf: folder.appendingPathComponent("../../Sources/Fluxion/Fluxion.docc/TestingYourStores.md"),
        encoding: .utf8)
    var found = 0
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
        let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        for region in source.components(separatedBy: "// article-").dropFirst() where region.contains("-begin\n") {
            let marker = region.prefix { $0 != "-" }
            let snippet = try #require(region.components(separatedBy: "-begin\n").last)
            let indent = String(snippet.prefix { $0 == " " })
            let code = snippet.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .map { $0.hasPrefix(indent) ? $0.dropFirst(indent.count) : $0 }.joined(separator: "\n")
            #expect(article.contains(code), "\(file): article-\(marker)")
            found += 1
        }
    }
    #expect(found == 2)
}
