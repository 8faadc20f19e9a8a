/// A parsed command line: the options, and the command if one was given.
public struct Invocation: Equatable, Sendable {
    /// `--file PATH`: the todo file, if given.
    public var file: String?
    /// Where to record this session's actions, as a journal file (JSON Lines).
    public var recordFile: String?
    /// `--trace FILE`: where to write the performance trace of this run (Trace Event JSON), at its end.
    public var traceFile: String?
    /// `--verbose`: print each action and the changes it made.
    public var isVerbose = false
    /// `--interactive`: run the interactive mode even when standard input is not a terminal.
    public var isInteractive = false
    /// The command; `nil` for none, which means the interactive mode on a terminal.
    public var command: Command?

    /// Creates an invocation.
    public init(file: String? = nil, isVerbose: Bool = false, isInteractive: Bool = false, command: Command? = nil) {
        self.file = file
        self.isVerbose = isVerbose
        self.isInteractive = isInteractive
        self.command = command
    }
}
