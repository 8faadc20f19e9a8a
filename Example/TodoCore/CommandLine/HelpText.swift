/// What `todo help` prints.
public enum HelpText {
    /// The usage.
    public static let text = """
        usage: todo [--file PATH] [--verbose] [COMMAND [ARGUMENT...]]

        commands:
          add TITLE         add a todo
          list              show the todos the filter lets through
          done N            mark todo N as done
          undo              undo the last change to the list
          filter FILTER     show all, active or completed todos
          clear-completed   remove the todos that are done
          stats             count the todos
          import FILE       add the todos of a JSON file: [{"title": "Buy milk", "isDone": false}]
          help              show this help

        Without a command, on a terminal, todo runs interactively: type the
        commands at the prompt, and 'quit' to leave.

        options:
          --file PATH       the todo file (default: $TODO_FILE, else ./todos.json);
                            the filter and the undo history live beside it
                            in NAME.filter.json and NAME.history.json
          --verbose, -v     print each action and the state changes it made
          --interactive, -i run interactively even when the input is not a terminal
          --help, -h        show this help

        exit status: 0 success, 1 a command that failed, 2 a usage error
        """
}
