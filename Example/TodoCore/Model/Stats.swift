/// Counts of the list's items: the state of ``StatsStore``.
public struct Stats: Codable, Equatable, Sendable, CustomStringConvertible {
    /// How many items there are.
    public var total: Int

    /// How many of them are done.
    public var done: Int

    /// Counts `items`.
    public init(counting items: [Todo] = []) {
        total = items.count
        done = items.count(where: \.isDone)
    }

    /// How many items are left to do.
    public var left: Int { total - done }

    /// The counts as `todo stats` prints them: `2 items, 1 done, 1 left`.
    public var description: String {
        "\(total) \(total == 1 ? "item" : "items"), \(done) done, \(left) left"
    }
}
