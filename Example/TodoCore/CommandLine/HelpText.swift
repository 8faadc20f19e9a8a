/// What `todo help` prints.
public enum HelpText {
    /// The usage, ending with where the list is kept: `file`.
    ///
    /// - Parameters:
    ///   - file: The todo file this run uses.
    ///   - convention: The platform's data directory convention, for the description of the default.
    public static func text(for file: TodoFile, convention: DataDirectoryConvention = .current) -> String {
        let dataDirectory =
            switch convention {
            case .xdg: "$XDG_DATA_HOME/\(TodoFile.dataFolderName), else ~/.local/share/\(TodoFile.dataFolderName)"
            case .applicationSupport: "~/Library/Application Support/\(TodoFile.dataFolderName)"
            }
        return """
            usage: todo [--file PATH] [--verbose] [--record FILE] [--trace FILE] [COMMAND [ARGUMENT...]]

            commands:
              add TITLE         add a todo
              list              show the todos the filter lets through
              done N            mark todo N as done
              undo              undo the last change to the list
              filter FILTER     show all, active or completed todos
              clear-completed   remove the todos that are done
              stats             count the todos
              import FILE       add the todos of a JSON file: [{"title": "Buy milk", "isDone": false}]
              history [FILE]    print the actions a journal recorded, each with its changes
                                (without FILE, in an interactive session: this session's)
                --html PAGE     instead, write them as a web page to open in a browser:
                                the timeline, each action's changes, the states, the effects
              replay FILE       replay a recorded journal, from the list as it was before
                                its first action; say whether every state, and the final
                                list, match the recording
              back, forward     in an interactive session: move the list one action back
                                or forward (a change made there drops the actions after it)
              help              show this help

            Without a command, on a terminal, todo runs interactively: type the
            commands at the prompt, and 'quit' to leave.

            options:
              --file PATH       the todo file (default: $TODO_FILE, else todos.json in
                                the data directory, below); the filter and the
                                undo history live beside it in NAME.filter.json
                                and NAME.history.json
              --verbose, -v     print each action and the state changes it made
              --record FILE     record this session's actions in FILE (JSON Lines, replaced)
              --trace FILE      time each action, part by part, and write the times to FILE
                                at the end (Trace Event JSON: open it in ui.perfetto.dev)
              --interactive, -i run interactively even when the input is not a terminal
              --help, -h        show this help

            your list is kept in \(file.path)
            data directory: \(dataDirectory)

            exit status: 0 success, 1 a command that failed, 2 a usage error
            """
    }
}
