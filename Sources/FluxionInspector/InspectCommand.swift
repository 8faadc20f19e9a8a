import Fluxion
import Foundation

/// What `fluxion-inspect` is asked to do, read from its arguments; ``run()`` does it.
///
/// `package`: the executable's logic, testable without a process; apps use ``JournalSummary`` and the
/// journal's `viewer` methods instead.
package struct InspectCommand: Equatable, Sendable {
    /// Arguments `fluxion-inspect` cannot act on: the message names what is wrong.
    package struct UsageError: Error, Equatable, CustomStringConvertible {
        /// What is wrong, in a sentence.
        package let message: String

        package var description: String { message }
    }

    /// What `fluxion-inspect --help` prints.
    package static let usage = """
        usage: fluxion-inspect JOURNAL.jsonl [--summary] [--html PAGE.html]
               fluxion-inspect --help

        Reads a journal file that a Fluxion app recorded (JSON Lines, `Journal(recording:writingTo:)`).

          --summary         print the steps, the time they span, the actions, the stores changed, the
                            effects, the steps with errors or that replay cannot dispatch again, and
                            the refused actions by error (what it does when no option is given)
          --html PAGE.html  write the journal viewer, one HTML page to open in a browser, readable by its
                            owner only; it replaces only an earlier page of the viewer
          -h, --help        print this help

        Exit status: 0 on success, 1 when the journal cannot be read or the page written, 2 for bad arguments.
        """

    /// The journal file's path; `nil` with `--help`.
    package var journalPath: String?
    /// Where to write the page, with `--html`.
    package var pagePath: String?
    /// Whether to print the summary: with `--summary`, or when no other option is given.
    package var printsSummary: Bool
    /// Whether to print the help instead.
    package var showsHelp: Bool

    /// The command the arguments ask for (without the executable's name).
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing or second journal, or `--html` without
    ///   a page.
    package init(arguments: [String]) throws(UsageError) {
        (journalPath, pagePath, printsSummary, showsHelp) = (nil, nil, false, false)
        var arguments = arguments[...]
        while let argument = arguments.popFirst() {
            switch argument {
            case "-h", "--help":
                showsHelp = true
            case "--summary":
                printsSummary = true
            case "--html":
                guard let page = arguments.popFirst(), !page.hasPrefix("-") else {
                    throw UsageError(message: "--html needs the path of the page to write")
                }
                guard pagePath == nil else { throw UsageError(message: "--html is given twice") }
                pagePath = page
            case let option where option.hasPrefix("-") && option.count > 1:
                throw UsageError(message: "unknown option \(option) (see --help)")
            default:
                guard journalPath == nil else {
                    throw UsageError(message: "one journal at a time: \(journalPath ?? "") and \(argument)")
                }
                journalPath = argument
            }
        }
        guard !showsHelp else { return }
        guard journalPath != nil else { throw UsageError(message: "no journal file given (see --help)") }
        if pagePath == nil { printsSummary = true }
    }

    /// Does what the arguments ask: writes the page, and returns the text to print.
    ///
    /// - Throws: `JournalError` when the journal cannot be read or the page cannot be written.
    package func run() throws -> String {
        guard !showsHelp, let journalPath else { return Self.usage }
        let journal = URL(fileURLWithPath: journalPath)
        var output: [String] = []
        if let pagePath {
            try Journal.writeViewer(contentsOf: journal, to: URL(fileURLWithPath: pagePath))
            output.append("wrote \(pagePath): open it in a browser")
        }
        if printsSummary {
            output.append(
                "\(journal.lastPathComponent)\n" + String(describing: try JournalSummary(contentsOf: journal)))
        }
        return output.joined(separator: "\n")
    }

    /// What a run of `fluxion-inspect` prints, and its exit status.
    package struct Outcome: Equatable, Sendable {
        /// The text for standard output, ending with a line break; empty when there is none.
        package var output: String
        /// The text for standard error, ending with a line break; empty when there is none.
        package var errorOutput: String
        /// The exit status: 0, 1 when the journal cannot be read or the page written, 2 for bad arguments.
        package var status: Int32
    }

    /// Reads `arguments`, runs the command, and returns what to print and the exit status: all that
    /// `fluxion-inspect`'s `main.swift` does, but print and exit.
    package static func outcome(of arguments: [String]) -> Outcome {
        do {
            let output = try InspectCommand(arguments: arguments).run()
            return Outcome(output: output.isEmpty ? "" : output + "\n", errorOutput: "", status: 0)
        } catch let error as UsageError {
            return Outcome(output: "", errorOutput: "fluxion-inspect: \(error)\n", status: 2)
        } catch {
            return Outcome(output: "", errorOutput: "fluxion-inspect: \(error)\n", status: 1)
        }
    }
}
