/// One item of the list: a title, done or not.
///
/// Its JSON form, in the todo file and in files for `todo import`, is
/// `{"title": "Buy milk", "isDone": false}`; `isDone` may be left out.
public struct Todo: Codable, Equatable, Sendable, CustomStringConvertible {
    /// What there is to do.
    public var title: String

    /// Whether it is done.
    public var isDone: Bool

    /// Creates an item.
    public init(title: String, isDone: Bool = false) {
        self.title = title
        self.isDone = isDone
    }

    private enum CodingKeys: String, CodingKey {
        case title
        case isDone
    }

    /// Decodes an item; a missing `isDone` means not done.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        isDone = try container.decodeIfPresent(Bool.self, forKey: .isDone) ?? false
    }

    /// The item as the list shows it, without its number: `[x] Walk the dog`.
    public var description: String {
        "[\(isDone ? "x" : " ")] \(title)"
    }
}
