import Foundation
import Testing

/// The README and the guides say the same things the same way (issue 25.2).
@Suite struct DocsConsistencyTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL

    /// The README and every DocC article, by name.
    private func documents() throws -> [(name: String, text: String)] {
        let catalog = Self.root.appendingPathComponent("Sources/Fluxion/Fluxion.docc")
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }
        return try (["README.md"] + articles.map { "Sources/Fluxion/Fluxion.docc/\($0)" }).map { path in
            (path, try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8))
        }
    }

    @Test func everyDependencyLineSpellsThePackageTheSameWay() throws {
        var spellings: Set<String> = []
        for document in try documents() {
            for part in document.text.components(separatedBy: #"package: ""#).dropFirst() {
                spellings.insert(String(part.prefix { $0 != "\"" }))
            }
        }
        #expect(spellings == ["fluxion"])
    }

    @Test func theReadmeShowsBothDependencyLinesWithPlatforms() throws {
        let readme = try #require(try documents().first { $0.name == "README.md" }).text
        #expect(readme.contains(#".package(url: "https://github.com/fluxion/fluxion.git", branch: "main")"#))
        #expect(readme.contains(#".package(path: "../fluxion")"#))
        #expect(readme.contains("platforms: [.macOS(.v14), .iOS(.v17)"))
        #expect(readme.contains("known issues"), "a line under Try it about swift test's known issues")
    }

    @Test func noArticleCallsItselfATutorial() throws {
        for document in try documents() {
            #expect(!document.text.lowercased().contains("tutorial"), "\(document.name)")
        }
    }

    @Test func nothingSaysReplayStartsFromAnEmptyList() throws {
        for document in try documents() {
            #expect(!document.text.contains("into an empty list"), "\(document.name)")
        }
    }
}
