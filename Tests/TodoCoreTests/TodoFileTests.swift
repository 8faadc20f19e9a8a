import Foundation
import Testing
import TodoCore

@Suite struct TodoFileTests {
    @Test func mapsThePathToADirectoryAndAKey() throws {
        let file = try TodoFile(path: "/tmp/lists/work.json")
        #expect(file.directory.path == "/tmp/lists")
        #expect(file.key == "work")
        #expect(file.path(ofArchive: "work.history") == "/tmp/lists/work.history.json")
    }

    @Test func prefersTheOptionThenTheEnvironmentThenTheDefault() throws {
        let environment = [TodoFile.environmentVariable: "/tmp/env.json"]
        #expect(try TodoFile.resolve(option: "/tmp/option.json", environment: environment).path == "/tmp/option.json")
        #expect(try TodoFile.resolve(option: nil, environment: environment).path == "/tmp/env.json")
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        #expect(
            try TodoFile.resolve(option: nil, environment: [:]).url
                == current.appendingPathComponent("todos.json").standardizedFileURL)
    }

    @Test(arguments: ["todos.txt", ".json", "/tmp/"])
    func refusesANameWithoutJSONExtension(path: String) {
        #expect(throws: CommandLineError.self) { try TodoFile(path: path) }
    }
}
