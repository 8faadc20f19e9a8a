import Fluxion
import Foundation
import TodoCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The program: parses the command line, opens the todo file, runs one
/// command or the interactive mode, saves, and returns the exit status.
@MainActor
struct TodoProgram {
    let arguments: [String]
    let environment: [String: String]

    /// Runs the program.
    ///
    /// - Returns: The exit status: 0 for success, 1 for a command that failed,
    ///   2 for a usage error.
    func run() async -> Int32 {
        let invocation: Invocation
        let file: TodoFile
        do {
            invocation = try CommandParser.parse(arguments: arguments)
            file = try TodoFile.resolve(option: invocation.file, environment: environment)
        } catch let error as CommandLineError {
            return fail(error)
        } catch {
            return fail(error)
        }

        let isInteractive = invocation.command == nil && (invocation.isInteractive || isatty(STDIN_FILENO) == 1)
        if invocation.command == .help || (invocation.command == nil && !isInteractive) {
            Console.print(HelpText.text(for: file))
            return 0
        }

        let reporter = PersistenceReporter(file: file)
        let app: TodoApp
        do {
            app = try TodoApp(
                storage: FileStateStorage(directory: file.directory), key: file.key,
                onPersistenceError: reporter.report)
        } catch {
            return fail(CommandLineError.invalidFile(file.path, reason: "\(error)"))
        }
        if invocation.isVerbose { app.dispatcher.addMiddleware(LoggingMiddleware(write: Console.log)) }
        // NB: an interactive session keeps a journal in memory, to travel in with `back` and `forward`.
        let journal: Journal?
        do {
            journal =
                invocation.recordFile != nil || isInteractive
                ? try Journal(
                    recording: app.dispatcher, writingTo: invocation.recordFile.map(URL.init(fileURLWithPath:)))
                : nil
        } catch {
            return fail(error)
        }
        // NB: the trace starts before the view observes, so that the view's first actions are in it.
        let trace = invocation.traceFile.map { _ in app.dispatcher.startTracing() }
        let view = ListView(app: app, write: Console.print)
        view.startObserving()
        let runner = CommandRunner(app: app, file: file, journal: journal)

        var status: Int32 = 0
        if let command = invocation.command {
            do {
                if let text = try await runner.run(command) { Console.print(text) }
            } catch {
                status = fail(error)
            }
        } else {
            await InteractiveSession(runner: runner, view: view).run()
        }
        // NB: saves and the journal are written off the main thread; write what is pending before the process ends.
        journal?.stop()
        await app.dispatcher.waitUntilFlushed()
        if let trace, let path = invocation.traceFile {
            await app.dispatcher.waitUntilDrained()  // NB: the effects still running end in the trace
            trace.stop()
            do {
                try trace.write(to: URL(fileURLWithPath: path))
            } catch {
                status = max(status, fail(error))
            }
        }
        withExtendedLifetime(view) {}  // NB: the view's observers live as long as it does
        return reporter.hasSaveFailed ? max(status, 1) : status
    }

    /// Prints the message for `error` and returns its exit status.
    private func fail(_ error: any Error) -> Int32 {
        Console.error("\(error)")
        guard let error = error as? CommandLineError else { return 1 }
        if error.exitStatus == 2 { Console.error("run 'todo help' for the usage") }
        return error.exitStatus
    }
}
