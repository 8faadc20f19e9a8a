import Foundation
import Testing

/// The code of the DocC guides is the code of this folder's tests: each `// article-NAME-begin` …
/// `// article-NAME-end` region of a test file, dedented, appears verbatim in the article the test names.
enum ArticleCode {
    /// This target's folder, `Tests/GuideTests`.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// The text of the catalog's article `name`, such as `GettingStarted`.
    static func article(_ name: String) throws -> String {
        let catalog = folder.appendingPathComponent("../../Sources/Fluxion/Fluxion.docc")
        return try String(contentsOf: catalog.appendingPathComponent("\(name).md"), encoding: .utf8)
    }

    /// The marked regions of `file` (a path under this target's folder), in order, dedented.
    static func regions(of file: String) throws -> [(name: String, code: String)] {
        let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        var regions: [(name: String, code: String)] = []
        for region in source.components(separatedBy: "// article-").dropFirst() where region.contains("-begin\n") {
            let name = String(region.prefix { $0 != "-" })
            let snippet = try #require(region.components(separatedBy: "-begin\n").last)
            let indent = String(snippet.prefix { $0 == " " })
            let code = snippet.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .map { $0.hasPrefix(indent) ? $0.dropFirst(indent.count) : $0 }.joined(separator: "\n")
            regions.append((name, code))
        }
        return regions
    }

    /// Checks that the article `name` holds every region of `files` verbatim, and that the regions
    /// are the ones `expected` names, in order, so that a lost marker cannot pass unnoticed.
    static func expect(
        article name: String,
        holdsTheRegionsOf files: [String],
        named expected: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let article = try article(name)
        var found: [String] = []
        for file in files {
            for region in try regions(of: file) {
                let holdsIt = article.contains(region.code)
                #expect(holdsIt, "\(name).md lacks \(file): article-\(region.name)", sourceLocation: sourceLocation)
                found.append(region.name)
            }
        }
        #expect(found == expected, sourceLocation: sourceLocation)
    }

    /// Checks that the article `name` holds the regions `names` of `file` verbatim: code another
    /// article shows first, such as Getting Started's counter.
    static func expect(
        article name: String,
        holdsRegions names: [String],
        of file: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let article = try article(name)
        let regions = try regions(of: file).filter { names.contains($0.name) }
        for region in regions {
            let holdsIt = article.contains(region.code)
            #expect(holdsIt, "\(name).md lacks \(file): article-\(region.name)", sourceLocation: sourceLocation)
        }
        #expect(regions.map(\.name) == names, sourceLocation: sourceLocation)
    }
}
