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
        let changes: [Change]
        /// The effects the step started, as they started and ended.
        var effects: [JournalRecord.Effect] = []
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
