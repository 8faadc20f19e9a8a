import Testing

@testable import TodoCore

@Suite struct CommandParserTests {
    @Test func parsesEachCommand() throws {
        let cases: [([String], Command?)] = [
            ([], nil),
            (["add", "Buy milk"], .add("Buy milk")),
            (["add", "Buy", "milk"], .add("Buy milk")),
            (["list"], .list),
            (["done", "2"], .done(2)),
            (["undo"], .undo),
            (["filter", "active"], .filter(.active)),
            (["clear-completed"], .clearCompleted),
            (["stats"], .stats),
            (["import", "todos.json"], .importFile("todos.json")),
            (["history"], .history(nil)),
            (["history", "s.jsonl"], .history("s.jsonl")),
            (["history", "--html", "p.html"], .history(nil, html: "p.html")),
            (["history", "s.jsonl", "--html=p.html"], .history("s.jsonl", html: "p.html")),
            (["--html", "p.html", "history", "s.jsonl"], .history("s.jsonl", html: "p.html")),
            (["replay", "s.jsonl"], .replay("s.jsonl")),
            (["back"], .back),
            (["forward"], .forward),
            (["help"], .help),
            (["quit"], .quit),
            (["exit"], .quit),
        ]
        for (arguments, command) in cases {
            #expect(try CommandParser.parse(arguments: arguments).command == command, "\(arguments)")
        }
    }

    @Test func takesOptionsAnywhereBeforeADoubleDash() throws {
        let invocation = try CommandParser.parse(arguments: ["add", "--verbose", "Buy", "--file", "a.json", "milk"])
        #expect(invocation == Invocation(file: "a.json", isVerbose: true, command: .add("Buy milk")))
        #expect(
            try CommandParser.parse(arguments: ["--file=b.json", "-i"])
                == Invocation(file: "b.json", isInteractive: true))
        #expect(try CommandParser.parse(arguments: ["add", "--", "--verbose"]).command == .add("--verbose"))
        #expect(try CommandParser.parse(arguments: ["-h"]).command == .help)
        #expect(try CommandParser.parse(arguments: ["--record", "s.jsonl", "-i"]).recordFile == "s.jsonl")
        #expect(try CommandParser.parse(arguments: ["--record=t.jsonl"]).recordFile == "t.jsonl")
        #expect(try CommandParser.parse(arguments: ["add", "milk", "--trace", "t.json"]).traceFile == "t.json")
        #expect(try CommandParser.parse(arguments: ["--trace=u.json", "-i"]).traceFile == "u.json")
    }

    @Test func takesANegativeNumberAsAnArgument() throws {
        #expect(try CommandParser.parse(arguments: ["done", "-1"]).command == .done(-1))
    }

    @Test(arguments: [
        (["frob"], CommandLineError.unknownCommand("frob"), Int32(2)),
        (["--colour"], .unknownOption("--colour"), 2),
        (["add"], .missingArgument(command: "add", argument: "a title"), 2),
        (["done"], .missingArgument(command: "done", argument: "an item number"), 2),
        (["done", "two"], .notANumber(command: "done", argument: "two"), 2),
        (["done", "1", "2"], .unexpectedArgument(command: "done", argument: "2"), 2),
        (["list", "all"], .unexpectedArgument(command: "list", argument: "all"), 2),
        (["filter"], .missingArgument(command: "filter", argument: "all, active or completed"), 2),
        (["filter", "someday"], .unknownFilter("someday"), 1),
        (["--file"], .missingArgument(command: "--file", argument: "a file path"), 2),
        (["--record"], .missingArgument(command: "--record", argument: "a file path"), 2),
        (["list", "--trace"], .missingArgument(command: "--trace", argument: "a file path"), 2),
        (["replay"], .missingArgument(command: "replay", argument: "a journal file"), 2),
        (["history", "a", "b"], .unexpectedArgument(command: "history", argument: "b"), 2),
        (["history", "--html"], .missingArgument(command: "--html", argument: "a file path"), 2),
        (["add", "milk", "--html", "p.html"], .unexpectedArgument(command: "add", argument: "--html"), 2),
        (["--html=p.html"], .unexpectedArgument(command: "todo", argument: "--html"), 2),
    ])
    func rejectsBadArguments(arguments: [String], error: CommandLineError, status: Int32) {
        #expect(throws: error) { try CommandParser.parse(arguments: arguments) }
        #expect(error.exitStatus == status)
    }

    @Test func splitsALineIntoWordsKeepingQuotedSpaces() throws {
        #expect(try CommandParser.words(in: #"  add "Buy  milk" 'at 5'  "#) == ["add", "Buy  milk", "at 5"])
        #expect(try CommandParser.words(in: #"add """#) == ["add", ""])
        #expect(try CommandParser.parse(line: "   ") == nil)
        #expect(try CommandParser.parse(line: "add Call mom") == .add("Call mom"))
        #expect(try CommandParser.parse(line: "history --html 'my page.html'") == .history(nil, html: "my page.html"))
        #expect(
            try CommandParser.parse(line: "history s.jsonl --html=p.html") == .history("s.jsonl", html: "p.html"))
        #expect(throws: CommandLineError.unterminatedQuote) { try CommandParser.parse(line: #"add "Buy"#) }
    }
}
