import Foundation

// `todo`: a todo list on Fluxion. See `TodoProgram` for the flow and
// `HelpText` for the usage.
let program = TodoProgram(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment
)
exit(await program.run())
