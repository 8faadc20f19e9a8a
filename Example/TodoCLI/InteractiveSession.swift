import TodoCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The interactive mode: a prompt, a command a line, until `quit` or the end of the input.
///
/// A plain `readLine` loop on the main thread. The list is shown again by the
/// ``ListView``'s observers, which run synchronously on this thread during
/// each dispatch, before the next prompt.
@MainActor
struct InteractiveSession {
    let runner: CommandRunner
    let view: ListView

    /// Runs the session until the user quits or the input ends; errors are printed, not returned.
    func run() async {
        let showsPrompt = isatty(STDIN_FILENO) == 1
        if showsPrompt { Console.print("todo: type a command, 'help' for the list, 'quit' to leave.") }
        view.render()
        while true {
            if showsPrompt { Console.prompt("todo> ") }
            guard let line = readLine() else {
                if showsPrompt { Console.print("") }
                return
            }
            do {
                guard let command = try CommandParser.parse(line: line) else { continue }
                if command == .quit { return }
                if let text = try await runner.run(command) { Console.print(text) }
            } catch {
                Console.error("\(error)")
            }
        }
    }
}
