/// Turns states into the text `todo` prints.
public enum TodoRenderer {
    /// The items `filter` lets through, one a line, numbered by their place in the whole list.
    ///
    /// ```
    /// 1. [ ] Buy milk
    /// 2. [x] Walk the dog
    /// ```
    ///
    /// With a filter other than `all`, a last line says how many items it hides.
    public static func list(_ list: TodoList, filter: VisibilityFilter) -> String {
        var lines: [String] = []
        for (index, todo) in list.items.enumerated() where filter.shows(todo) {
            lines.append("\(index + 1). \(todo)")
        }
        if lines.isEmpty {
            lines.append(filter == .all ? "No todos." : "No \(filter) todos.")
        }
        let hidden = list.items.count(where: { !filter.shows($0) })
        if hidden > 0 {
            lines.append("(filter: \(filter); \(hidden) hidden)")
        }
        return lines.joined(separator: "\n")
    }

    /// The counts: `2 items, 1 done, 1 left`.
    public static func stats(_ stats: Stats) -> String {
        stats.description
    }
}
