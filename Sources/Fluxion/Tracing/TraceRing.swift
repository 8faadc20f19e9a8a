/// A recorded span as the recorder keeps it: clock readings, a thread number, and what it measured,
/// named only when read.
struct TraceRecord: Sendable {
    let kind: PerformanceTrace.Span.Kind
    let subject: TraceSubject
    let action: String
    let outcome: String?
    /// The thread that ran it, numbered from 1 in the order the recorder first saw them; 0 for an effect.
    let thread: Int
    /// Clock readings, in nanoseconds.
    let start: UInt64
    let end: UInt64
}

/// What a span measured: its name, or the types that name it, which are named when the trace is read
/// (naming a type costs more than recording a span).
@usableFromInline
enum TraceSubject: Sendable {
    case named(String)
    /// A store's handler, or a middleware: named after its type.
    case type(any Any.Type)
    /// An observer of a store.
    case observer(store: any AnyObject.Type, observer: AnyObserver.Type)

    /// The names of types, each worked out once.
    struct Names {
        private var names: [ObjectIdentifier: String] = [:]

        mutating func name(of subject: TraceSubject) -> String {
            switch subject {
            case .named(let name): return name
            case .type(let type): return name(of: type)
            case .observer(let store, let observer): return "\(name(of: store)): \(observer.traceLabel)"
            }
        }

        private mutating func name(of type: any Any.Type) -> String {
            if let name = names[ObjectIdentifier(type)] { return name }
            let name = typeName(type)
            names[ObjectIdentifier(type)] = name
            return name
        }
    }
}

/// The newest records, up to a capacity, in the order they were added: a ring that overwrites its oldest.
struct TraceRing {
    let capacity: Int
    private var storage: [TraceRecord] = []
    /// Where the oldest record is, once the ring is full.
    private var head = 0
    /// How many records were overwritten.
    private(set) var dropped = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    mutating func append(_ record: TraceRecord) {
        guard storage.count == capacity else { return storage.append(record) }
        storage[head] = record
        head = (head + 1) % capacity
        dropped += 1
    }

    /// Every record, oldest first.
    var all: [TraceRecord] {
        Array(storage[head...] + storage[..<head])
    }

    /// The records from the newest back, while `body` returns `true`.
    func forEachFromNewest(_ body: (TraceRecord) -> Bool) {
        for offset in 0..<storage.count {
            let index = (head + storage.count - 1 - offset) % storage.count
            if !body(storage[index]) { return }
        }
    }
}
