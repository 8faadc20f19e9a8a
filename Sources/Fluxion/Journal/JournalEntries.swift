import Foundation

/// The steps a journal holds in memory: the newest `capacity` of them, oldest first.
struct JournalEntries {
    /// One recorded action and the changes it made, with the states as values.
    struct Entry: Sendable {
        let sequence: Int
        let action: AnyAction
        let time: Date
        let changes: [Change]
    }

    /// One store's change.
    struct Change: Sendable {
        let store: any StateReplacing
        let oldState: any Sendable
        let newState: any Sendable

        var storeName: String { typeName(type(of: store)) }
    }

    let capacity: Int
    private var ring: [Entry] = []
    /// Where the oldest entry is in `ring` once it is full.
    private var head = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        ring.reserveCapacity(min(self.capacity, 4096))
    }

    var count: Int { ring.count }

    var isEmpty: Bool { ring.isEmpty }

    /// The entry `offset` places after the oldest.
    subscript(offset: Int) -> Entry {
        ring[(head + offset) % ring.count]
    }

    var first: Entry? { isEmpty ? nil : self[0] }

    var last: Entry? { isEmpty ? nil : self[count - 1] }

    /// Appends an entry, forgetting the oldest when full.
    mutating func append(_ entry: Entry) {
        guard ring.count == capacity else { return ring.append(entry) }
        ring[head] = entry
        head = (head + 1) % capacity
    }

    /// The entries, oldest first.
    var all: [Entry] {
        (0..<count).map { self[$0] }
    }

    /// Forgets the entries after step `sequence`.
    mutating func removeAll(after sequence: Int) {
        let kept = all.filter { $0.sequence <= sequence }
        ring = kept
        head = 0
    }
}
