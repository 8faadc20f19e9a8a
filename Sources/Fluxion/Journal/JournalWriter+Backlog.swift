import Foundation

extension JournalWriter {
    /// The lines handed to a writer and not written yet, in order, and whether its queue is awake to write them.
    struct Backlog {
        /// What one line is made of.
        enum Item {
            case step(JournalEntries.Entry)
            case resume(after: Int, states: [JournalEntries.Change], time: Date)
            case effect(JournalRecord.Effect, step: Int, error: (any Error)?)
        }

        private var items: [Item] = []
        /// Whether the queue is writing the backlog, or about to: it takes new items before it sleeps.
        private var isAwake = false

        /// Adds an item; returns whether the queue must be woken to write it.
        mutating func add(_ item: Item) -> Bool {
            items.append(item)
            defer { isAwake = true }
            return !isAwake
        }

        /// Takes every item, in order; `nil` when there is none, and the queue goes to sleep.
        mutating func take() -> [Item]? {
            guard !items.isEmpty else {
                isAwake = false
                return nil
            }
            defer { items = [] }
            return items
        }
    }
}
