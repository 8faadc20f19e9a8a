/// One thing the user asks `todo` to do.
public enum Command: Equatable, Sendable {
    /// `add TITLE…`: add an item.
    case add(String)
    /// `list`: show the items the filter lets through.
    case list
    /// `done N`: mark item N as done.
    case done(Int)
    /// `undo`: restore the list as it was before its last change.
    case undo
    /// `filter all|active|completed`: choose which items the list shows.
    case filter(VisibilityFilter)
    /// `clear-completed`: remove the items that are done.
    case clearCompleted
    /// `stats`: count the items.
    case stats
    /// `import FILE`: add the items of a JSON file.
    case importFile(String)
    /// `history [FILE] [--html PAGE]`: print the actions of a journal file, or of this session, each with
    /// its changes; with `html`, write them instead as a page to open in a browser (the journal viewer).
    case history(String?, html: String? = nil)
    /// `replay FILE`: replay a journal file into an empty app and say whether every state matched.
    case replay(String)
    /// `back`: move the stores one action back in this session's journal (time travel).
    case back
    /// `forward`: move the stores one action forward in this session's journal.
    case forward
    /// `help`: show the usage.
    case help
    /// `quit` (or `exit`): leave the interactive mode.
    case quit
}
