/// Turns a command line, or a line typed in the interactive mode, into a ``Command``.
///
/// ```
/// todo [--file PATH] [--verbose] [--interactive] [--record FILE] [--trace FILE] [COMMAND [ARGUMENT…]]
/// ```
///
/// Options may come anywhere until `--`, after which every word is an
/// argument (`todo add -- -5 degrees`). `add` joins its words with spaces,
/// so `todo add Buy milk` and `todo add "Buy milk"` are the same.
public enum CommandParser {
    /// Parses the arguments of the program, without the program's name.
    ///
    /// - Throws: ``CommandLineError``.
    public static func parse(arguments: [String]) throws -> Invocation {
        var invocation = Invocation()
        var words: [String] = []
        var page: String?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                words += remaining
                break
            }
            guard isOption(argument) else {
                words.append(argument)
                continue
            }
            switch argument {
            case "--verbose", "-v":
                invocation.isVerbose = true
            case "--interactive", "-i":
                invocation.isInteractive = true
            case "--help", "-h":
                words.insert("help", at: 0)
            case "--file":
                guard let path = remaining.popFirst() else {
                    throw CommandLineError.missingArgument(command: "--file", argument: "a file path")
                }
                invocation.file = path
            case let option where option.hasPrefix("--file="):
                invocation.file = String(option.dropFirst("--file=".count))
            case "--record":
                guard let path = remaining.popFirst() else {
                    throw CommandLineError.missingArgument(command: "--record", argument: "a file path")
                }
                invocation.recordFile = path
            case let option where option.hasPrefix("--record="):
                invocation.recordFile = String(option.dropFirst("--record=".count))
            case "--trace":
                guard let path = remaining.popFirst() else {
                    throw CommandLineError.missingArgument(command: "--trace", argument: "a file path")
                }
                invocation.traceFile = path
            case let option where option.hasPrefix("--trace="):
                invocation.traceFile = String(option.dropFirst("--trace=".count))
            case "--html":
                guard let path = remaining.popFirst() else {
                    throw CommandLineError.missingArgument(command: "--html", argument: "a file path")
                }
                page = path
            case let option where option.hasPrefix("--html="):
                page = String(option.dropFirst("--html=".count))
            default:
                throw CommandLineError.unknownOption(argument)
            }
        }
        invocation.command = try command(from: words)
        if let page {
            // NB: `--html` belongs to `history`; as an option it may come anywhere, as the others do.
            guard case .history(let file, nil) = invocation.command else {
                throw CommandLineError.unexpectedArgument(command: words.first ?? "todo", argument: "--html")
            }
            invocation.command = .history(file, html: page)
        }
        return invocation
    }

    /// Parses a line typed in the interactive mode; `nil` for a blank line.
    ///
    /// Words are separated by white space; single or double quotes keep
    /// white space in a word.
    ///
    /// - Throws: ``CommandLineError``.
    public static func parse(line: String) throws -> Command? {
        try command(from: words(in: line))
    }

    /// The commands that take no argument, by name.
    private static let commandsWithoutArguments: [String: Command] = [
        "list": .list, "undo": .undo, "clear-completed": .clearCompleted, "stats": .stats, "help": .help,
        "quit": .quit, "exit": .quit, "back": .back, "forward": .forward,
    ]

    /// The command named by the first word, with the others as its arguments; `nil` for no words.
    static func command(from words: [String]) throws -> Command? {
        guard let name = words.first else { return nil }
        let arguments = Array(words.dropFirst())
        if let command = commandsWithoutArguments[name] {
            if let extra = arguments.first {
                throw CommandLineError.unexpectedArgument(command: name, argument: extra)
            }
            return command
        }
        switch name {
        case "add":
            guard !arguments.isEmpty else {
                throw CommandLineError.missingArgument(command: name, argument: "a title")
            }
            return .add(arguments.joined(separator: " "))
        case "done":
            let argument = try single(arguments, of: name, naming: "an item number")
            guard let number = Int(argument) else {
                throw CommandLineError.notANumber(command: name, argument: argument)
            }
            return .done(number)
        case "filter":
            let argument = try single(arguments, of: name, naming: "all, active or completed")
            guard let filter = VisibilityFilter(rawValue: argument) else {
                throw CommandLineError.unknownFilter(argument)
            }
            return .filter(filter)
        case "import":
            return .importFile(try single(arguments, of: name, naming: "a JSON file"))
        case "replay":
            return .replay(try single(arguments, of: name, naming: "a journal file"))
        case "history":
            return try history(arguments)
        default:
            throw CommandLineError.unknownCommand(name)
        }
    }

    /// `history [FILE] [--html PAGE]`, the option before or after the file.
    private static func history(_ arguments: [String]) throws -> Command {
        var files: [String] = []
        var page: String?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--html" {
                guard let path = remaining.popFirst() else {
                    throw CommandLineError.missingArgument(command: "--html", argument: "a file path")
                }
                page = path
            } else if argument.hasPrefix("--html=") {
                page = String(argument.dropFirst("--html=".count))
            } else {
                files.append(argument)
            }
        }
        let file = files.isEmpty ? nil : try single(files, of: "history", naming: "a journal file")
        return .history(file, html: page)
    }

    private static func single(_ arguments: [String], of command: String, naming argument: String) throws -> String {
        guard let first = arguments.first else {
            throw CommandLineError.missingArgument(command: command, argument: argument)
        }
        if arguments.count > 1 { throw CommandLineError.unexpectedArgument(command: command, argument: arguments[1]) }
        return first
    }

    /// Whether `argument` is an option: it starts with `-`, but is not `-` alone or a negative number.
    private static func isOption(_ argument: String) -> Bool {
        argument.hasPrefix("-") && argument != "-" && Int(argument) == nil
    }

    /// The words of a line, split at white space outside quotes.
    static func words(in line: String) throws -> [String] {
        var words: [String] = []
        var word: String?
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word?.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                word = word ?? ""
            } else if character.isWhitespace {
                if let finished = word { words.append(finished) }
                word = nil
            } else {
                word = (word ?? "") + String(character)
            }
        }
        guard quote == nil else { throw CommandLineError.unterminatedQuote }
        if let word { words.append(word) }
        return words
    }
}
