/// A command line or an input line that `todo` cannot run, with its exit status.
public enum CommandLineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The command is not one `todo` knows.
    case unknownCommand(String)
    /// The option is not one `todo` knows.
    case unknownOption(String)
    /// The command or option needs an argument that is missing.
    case missingArgument(command: String, argument: String)
    /// The command takes fewer arguments.
    case unexpectedArgument(command: String, argument: String)
    /// The argument should be a whole number.
    case notANumber(command: String, argument: String)
    /// The input has a quote that is not closed.
    case unterminatedQuote
    /// The filter value is not `all`, `active` or `completed`.
    case unknownFilter(String)
    /// The todo file cannot be used.
    case invalidFile(String, reason: String)
    /// `back` or `forward` outside an interactive session, which alone keeps a journal to travel in.
    case needsJournal(command: String)

    /// The exit status: 2 for a usage error, 1 for a value the command rejects.
    public var exitStatus: Int32 {
        switch self {
        case .unknownCommand, .unknownOption, .missingArgument, .unexpectedArgument, .notANumber, .unterminatedQuote,
            .invalidFile, .needsJournal:
            2
        case .unknownFilter:
            1
        }
    }

    /// The message `todo` prints after `todo: `.
    public var description: String {
        switch self {
        case .unknownCommand(let command):
            "unknown command '\(command)'"
        case .unknownOption(let option):
            "unknown option '\(option)'"
        case .missingArgument(let command, let argument):
            "'\(command)' needs \(argument)"
        case .unexpectedArgument(let command, let argument):
            "'\(command)' does not take the argument '\(argument)'"
        case .notANumber(let command, let argument):
            "'\(command)' needs an item number, not '\(argument)'"
        case .unterminatedQuote:
            "a quote is not closed"
        case .unknownFilter(let value):
            "unknown filter '\(value)'; use all, active or completed"
        case .invalidFile(let path, let reason):
            "cannot use '\(path)' as the todo file: \(reason)"
        case .needsJournal(let command):
            "'\(command)' moves through this session's actions: use it in an interactive session"
        }
    }
}
