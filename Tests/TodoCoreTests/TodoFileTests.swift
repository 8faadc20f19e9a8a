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

    @Test func prefersTheOptionThenTheEnvironmentThenTheDataDirectory() throws {
        let environment = [TodoFile.environmentVariable: "/tmp/env.json", "XDG_DATA_HOME": "/tmp/xdg"]
        #expect(try TodoFile.resolve(option: "/tmp/option.json", environment: environment).path == "/tmp/option.json")
        #expect(try TodoFile.resolve(option: nil, environment: environment).path == "/tmp/env.json")
        #expect(
            try TodoFile.resolve(option: nil, environment: ["XDG_DATA_HOME": "/tmp/xdg"], convention: .xdg).path
                == "/tmp/xdg/fluxion-todo/todos.json")
        #expect(
            try TodoFile.resolve(option: nil, environment: ["HOME": "/home/ada"], convention: .applicationSupport)
                .path == "/home/ada/Library/Application Support/fluxion-todo/todos.json")
    }

    @Test func anEmptyEnvironmentVariableIsNoFile() throws {
        let environment = [TodoFile.environmentVariable: "", "XDG_DATA_HOME": "/tmp/xdg"]
        #expect(
            try TodoFile.resolve(option: nil, environment: environment, convention: .xdg).path
                == "/tmp/xdg/fluxion-todo/todos.json")
    }

    @Test(arguments: [
        (["XDG_DATA_HOME": "/srv/data", "HOME": "/home/ada"], "/srv/data/fluxion-todo"),
        (["XDG_DATA_HOME": "", "HOME": "/home/ada"], "/home/ada/.local/share/fluxion-todo"),
        (["XDG_DATA_HOME": "data", "HOME": "/home/ada"], "/home/ada/.local/share/fluxion-todo"),
        (["HOME": "/home/ada/"], "/home/ada/.local/share/fluxion-todo"),
    ])
    func theXDGDataDirectoryIsXDGDataHomeWhenAbsoluteElseLocalShare(
        environment: [String: String], expected: String
    ) {
        #expect(TodoFile.dataDirectory(environment: environment, convention: .xdg).path == expected)
    }

    @Test func applePlatformsUseApplicationSupportWhateverXDGDataHomeSays() {
        let environment = ["XDG_DATA_HOME": "/srv/data", "HOME": "/Users/ada"]
        #expect(
            TodoFile.dataDirectory(environment: environment, convention: .applicationSupport).path
                == "/Users/ada/Library/Application Support/fluxion-todo")
    }

    @Test func withoutHomeTheAccountsHomeDirectoryIsUsed() {
        let home = FileManager.default.homeDirectoryForCurrentUser.standardizedFileURL.path
        #expect(TodoFile.dataDirectory(environment: [:], convention: .xdg).path == home + "/.local/share/fluxion-todo")
    }

    @Test func helpNamesTheFileAndDescribesTheDefault() throws {
        let file = try TodoFile(path: "/tmp/lists/work.json")
        #expect(HelpText.text(for: file, convention: .xdg).contains("\nyour list is kept in /tmp/lists/work.json\n"))
        #expect(HelpText.text(for: file, convention: .xdg).contains("$XDG_DATA_HOME/fluxion-todo"))
        #expect(HelpText.text(for: file, convention: .applicationSupport).contains("~/Library/Application Support"))
    }

    @Test(arguments: ["todos.txt", ".json", "/tmp/"])
    func refusesANameWithoutJSONExtension(path: String) {
        #expect(throws: CommandLineError.self) { try TodoFile(path: path) }
    }
}
