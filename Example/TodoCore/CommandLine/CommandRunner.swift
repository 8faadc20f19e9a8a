import Fluxion
import FluxionInspector
import Foundation

/// Runs commands against the app: dispatches the actions, or reads what a query asks for.
///
/// A command that changes something returns `nil`: its outcome is shown by
/// the observers (``ListView``), not here. A query returns the text to print.
public struct CommandRunner: Sendable {
    private let app: TodoApp
    private let file: TodoFile
    private let journal: Journal?

    /// Creates a runner for `app`, whose state is kept in `file`; `journal`, recording the app's
    /// dispatcher, lets `back` and `forward` travel through the session's actions and `history` print them.
    public init(app: TodoApp, file: TodoFile, journal: Journal? = nil) {
        self.app = app
        self.file = file
        self.journal = journal
    }

    /// Runs `command`.
    ///
    /// - Returns: The text a query asks for; `nil` for a command that changes something.
    /// - Throws: ``TodoError``, ``ImportError``, ``JournalError`` or
    ///   ``CommandLineError`` when the command cannot be done.
    public func run(_ command: Command) async throws -> String? {
        let dispatcher = app.dispatcher
        if command.changesTheList, let journal, journal.isTravelling {
            // NB: a change made in the past makes it the present: the actions after it go.
            journal.resumeDiscardingLaterSteps()
        }
        switch command {
        case .add(let title):
            try dispatcher.dispatch(.addTodo, payload: title)
        case .done(let number):
            try dispatcher.dispatch(.completeTodo, payload: number)
        case .undo:
            try dispatcher.dispatch(.undo)
        case .filter(let filter):
            try dispatcher.dispatch(.setFilter, payload: filter)
        case .clearCompleted:
            try dispatcher.dispatch(.clearCompleted)
        case .importFile(let path):
            // The store asks for an effect that reads the file; its outcome is one action, or an error.
            try dispatcher.dispatch(.importTodos, payload: path)
            await dispatcher.waitUntilDrained()
            if let failure = app.failures.take().first { throw failure.error }
        case .list:
            return TodoRenderer.list(app.todos.state, filter: app.filter.state)
        case .stats:
            return TodoRenderer.stats(app.stats.state)
        case .history(let path, let page):
            guard let page else { return try history(path) }
            return try writePage(page, of: path)
        case .replay(let path):
            return try SessionReplay.replay(URL(fileURLWithPath: path))
        case .back, .forward:
            return try travel(command)
        case .help:
            return HelpText.text(for: file)
        case .quit:
            break
        }
        return nil
    }

    /// The timeline of a journal file, or of this session: one action per line, with its changes below.
    private func history(_ path: String?) throws -> String {
        let records: [JournalRecord]
        if let path {
            records = try Journal.records(contentsOf: URL(fileURLWithPath: path))
        } else {
            guard let journal else {
                throw CommandLineError.missingArgument(command: "history", argument: "a journal file")
            }
            records = journal.records
        }
        return records.isEmpty ? "no actions recorded" : records.map(\.description).joined(separator: "\n")
    }

    /// Writes the journal viewer of a journal file, or of this session, to `page`.
    private func writePage(_ page: String, of path: String?) throws -> String {
        let url = URL(fileURLWithPath: page)
        if let path {
            try Journal.writeViewer(contentsOf: URL(fileURLWithPath: path), to: url)
        } else {
            guard let journal else {
                throw CommandLineError.missingArgument(command: "history", argument: "a journal file")
            }
            try journal.writeViewer(to: url)
        }
        return "wrote \(page): open it in a browser"
    }

    /// Moves the stores one action back or forward; the views show the list as it was there.
    private func travel(_ command: Command) throws -> String {
        let name = command == .back ? "back" : "forward"
        guard let journal else { throw CommandLineError.needsJournal(command: name) }
        if command == .back { try journal.stepBack() } else { try journal.stepForward() }
        let steps = journal.steps
        let position = journal.isTravelling ? "" : " (the present)"
        return "at action \(journal.step) of \(steps.upperBound)\(position)"
    }
}

extension Command {
    /// Whether the command dispatches an action that changes a store.
    var changesTheList: Bool {
        switch self {
        case .add, .done, .undo, .filter, .clearCompleted, .importFile: true
        case .list, .stats, .history, .replay, .back, .forward, .help, .quit: false
        }
    }
}
