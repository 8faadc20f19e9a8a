import Foundation

/// The state of ``TodoStore``: the items, in the order they were added.
///
/// Items are numbered from 1 by their place in this list, whatever the
/// filter shows, so `todo done 2` means the same item in every view. The
/// mutating methods are the list's rules; the store's handlers call them.
public struct TodoList: Codable, Equatable, Sendable, CustomStringConvertible {
    /// The items, first added first.
    public var items: [Todo]

    /// Creates a list.
    public init(items: [Todo] = []) {
        self.items = items
    }

    /// Adds an item with `title`, without its leading and trailing white space.
    ///
    /// - Throws: ``TodoError/emptyTitle`` when nothing is left of the title.
    public mutating func add(_ title: String) throws {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw TodoError.emptyTitle }
        items.append(Todo(title: title))
    }

    /// Adds items read from elsewhere, after checking every one.
    ///
    /// - Throws: ``TodoError/emptyTitle`` when one has no title; then none is added.
    public mutating func add(contentsOf todos: [Todo]) throws {
        var added: [Todo] = []
        for todo in todos {
            let title = todo.title.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !title.isEmpty else { throw TodoError.emptyTitle }
            added.append(Todo(title: title, isDone: todo.isDone))
        }
        items += added
    }

    /// Marks item `number` (counting from 1) as done.
    ///
    /// - Throws: ``TodoError/noSuchItem(_:)`` when there is no such item.
    public mutating func complete(_ number: Int) throws {
        guard items.indices.contains(number - 1) else { throw TodoError.noSuchItem(number) }
        items[number - 1].isDone = true
    }

    /// Removes the items that are done.
    public mutating func clearCompleted() {
        items.removeAll(where: \.isDone)
    }

    /// The items as a one-line list, for logs: `[[ ] Buy milk, [x] Walk the dog]`.
    public var description: String {
        "[" + items.map(\.description).joined(separator: ", ") + "]"
    }
}
