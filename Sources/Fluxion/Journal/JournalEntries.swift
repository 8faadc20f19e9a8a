import Foundation

/// The steps a journal holds in memory: the newest `capacity` of them, oldest first.
struct JournalEntries {
    /// One recorded action and the changes it made, with the states as values.
    struct Entry: Sendable {
        let sequence: Int
        /// The dispatcher's serial of the step.
        let serial: UInt64
        let cause: JournalRecord.Cause
        let action: AnyAction
        let time: Date
        let recorded: Changes
        /// The effects the step started, as they started and ended.
        var effects: [JournalRecord.Effect] = []

        /// The stores it changed, in registration order.
        var changes: [Change] { recorded.all }
    }

    /// One store's change.
    struct Change: Sendable {
        /// NB: the journal's tracker keeps every store it saw for as long as the journal lives.
        unowned(unsafe) let seen: JournalStore
        let oldState: any Sendable
        let newState: any Sendable

        /// NB: `seen` is kept alive by the journal's tracker, or by the caller.
        init(_ seen: JournalStore, oldState: any Sendable, newState: any Sendable) {
            self.seen = seen
            self.oldState = oldState
            self.newState = newState
        }

        var store: any StateReplacing { seen.store }
        var storeName: String { seen.name }
    }

    /// A step's changes: one is held inline, as most steps change one store, so recording it allocates nothing.
    struct Changes: Sendable {
        private var first: Change?
        private var others: [Change] = []

        init() {}

        init(_ changes: [Change]) {
            for change in changes { append(change) }
        }

        /// Whether `first` is `nil`. NB: kept apart, as testing an optional change copies it.
        private(set) var isEmpty = true

        mutating func append(_ change: consuming Change) {
            guard isEmpty else { return others.append(change) }
            first = consume change
            isEmpty = false
        }

        /// The changes, in the order appended.
        var all: [Change] {
            guard let first else { return [] }
            return [first] + others
        }
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
    @inline(__always)
    mutating func append(_ entry: consuming Entry) {
        guard ring.count == capacity else { return ring.append(entry) }
        ring[head] = entry
        head = (head + 1) % capacity
    }

    /// The number of the step with the dispatcher's serial `serial`, if it is held.
    func sequence(ofSerial serial: UInt64) -> Int? {
        offset(ofSerial: serial).map { self[$0].sequence }
    }

    /// Changes the entry of the step with the dispatcher's serial `serial`; returns it changed, if it is held.
    mutating func update(serial: UInt64, _ body: (inout Entry) -> Void) -> Entry? {
        guard let offset = offset(ofSerial: serial) else { return nil }
        let index = (head + offset) % ring.count
        body(&ring[index])
        return ring[index]
    }

    /// A step's cause in the journal's numbers.
    func cause(_ cause: StepCause) -> JournalRecord.Cause {
        switch cause {
        case .outside: .outside
        case .queued(let serial): .queued(byStep: sequence(ofSerial: serial))
        case .effect(let tag): .effect(tag.name, step: sequence(ofSerial: tag.step))
        }
    }

    /// Where the step with `serial` is, searched from the newest: causes are mostly recent.
    private func offset(ofSerial serial: UInt64) -> Int? {
        (0..<count).reversed().first { self[$0].serial == serial }
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
